import type { warning as zh } from '../zh/warning';

export const warning: typeof zh = {
  handle: 'Handle',
  batchHandle: 'Handle selected',
  open: 'Details',
  startRange: 'Started',
  handleTitle: 'Handle warnings',
  handleCount: '{{count}} warning(s) will be handled',
  result: 'Result',
  resultPlaceholder: 'What caused it and what was done, e.g. disinfectant replaced, concentration back to normal',
  resultRequired: 'Enter the result',
  resultMax: 'The result may be at most 500 characters',
  noneUnhandled: 'Select warnings that are not handled yet',
  detail: {
    tab: 'Warning',
    chart: 'Trigger field around the warning',
    threshold: 'Threshold',
    start: 'Start',
    end: 'End',
    noPoints: 'No data of this field around the warning',
    chartFailed: 'The chart data could not be read',
    notFound: 'The warning does not exist or you may not see it',
    back: 'Back to the warnings',
  },
};
