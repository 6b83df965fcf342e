import type { notice as zh } from '../zh/notice';

export const notice: typeof zh = {
  read: 'Read',
  rolesPlaceholder: 'Roles that receive the notice',
  usersPlaceholder: 'Users who receive the notice',
  deptsPlaceholder: 'Departments that receive the notice (with their sub-departments)',
  contentPlaceholder: 'Write the notice here…',
  contentHint:
    'On save the server removes scripts, event attributes and unsafe links; formatting, links, images and tables stay.',
  toolbar: {
    bold: 'Bold',
    italic: 'Italic',
    strike: 'Strikethrough',
    h2: 'Heading',
    h3: 'Subheading',
    paragraph: 'Body text',
    bulletList: 'Bulleted list',
    orderedList: 'Numbered list',
    quote: 'Quote',
    link: 'Link',
    unlink: 'Remove link',
    undo: 'Undo',
    redo: 'Redo',
  },
  linkTitle: 'Insert link',
  linkPlaceholder: 'https://… or mailto:…',
  linkInvalid: 'A link must start with http://, https:// or mailto:',
  ok: 'OK',
  cancel: 'Cancel',
  detail: {
    tab: 'Notice',
    category: 'Category',
    releaseTime: 'Released',
    empty: 'This notice has no text',
    notFound: 'The notice does not exist, is not released yet or is not addressed to you',
    back: 'Back to the notices',
  },
};
