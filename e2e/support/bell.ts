import type { Page } from 'playwright-core';
import {
  NOTICE_INBOX_PATH,
  WARNING_UNHANDLED_PATH,
  type NoticeInboxReply,
  type UnhandledWarningsReply,
} from '@mes/contracts';
import { callApi, poll } from './browser';

/**
 * What the header's bell should count for the page's user, asked of the server: unread notices
 * of the inbox and unhandled warnings (the one count of docs/warnings.md). Specs share the e2e server, so a spec compares the
 * bell with this instead of assuming an empty tenant.
 */
export async function unreadOnServer(page: Page): Promise<{ unread: number; notices: number; warnings: number }> {
  const [inbox, active] = await Promise.all([
    callApi<NoticeInboxReply>(page, `/api${NOTICE_INBOX_PATH}?current=1&size=1`),
    callApi<UnhandledWarningsReply>(page, `/api${WARNING_UNHANDLED_PATH}`),
  ]);
  const notices = inbox.data.unread;
  // A user who may not read warnings gets a refusal: none of them counts.
  const warnings = active.success ? active.data.total : 0;
  return { unread: notices + warnings, notices, warnings };
}

/**
 * Waits until the bell's badge and the popover's 告警 tab show the server's counts, with at least
 * one unread: after a live event, without a reload.
 */
export async function bellFollowsServer(page: Page): Promise<void> {
  const bell = page.getByTestId('notice');
  await poll(async () => {
    const [shown, server] = await Promise.all([bell.getAttribute('data-unread'), unreadOnServer(page)]);
    return Number(shown) === server.unread && server.unread > 0 ? 'same' : `${shown} ≠ ${server.unread}`;
  }).toBe('same');
  const { warnings } = await unreadOnServer(page);
  const tabs = page.getByTestId('notice-tabs');
  await poll(() => tabs.getByRole('tab', { name: /告警/ }).textContent()).toContain(`(${warnings})`);
}
