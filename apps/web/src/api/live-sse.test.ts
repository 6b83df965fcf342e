import { describe, expect, it } from 'vitest';
import { SseParser, type SseMessage } from './live-sse';

const parse = (chunks: string[]) => {
  const messages: SseMessage[] = [];
  const retries: number[] = [];
  const parser = new SseParser(
    (m) => messages.push(m),
    (ms) => retries.push(ms),
  );
  for (const c of chunks) parser.push(c);
  return { messages, retries };
};

describe('SseParser', () => {
  it('reads events, the retry delay, and skips heartbeat comments', () => {
    const { messages, retries } = parse([
      'retry: 3000\n: connected\n\n',
      'event: warning\ndata: {"a":1}\n\n',
      ': ping\n\n',
    ]);
    expect(retries).toEqual([3000]);
    expect(messages).toEqual([{ event: 'warning', data: '{"a":1}' }]);
  });

  it('joins a message cut anywhere across chunks, with CR LF line ends and several data lines', () => {
    const text = 'event: notice\r\ndata: line1\r\ndata: line2\r\n\r\nevent: device\ndata: x\n\n';
    for (let cut = 1; cut < text.length; cut++) {
      const { messages } = parse([text.slice(0, cut), text.slice(cut)]);
      expect(messages).toEqual([
        { event: 'notice', data: 'line1\nline2' },
        { event: 'device', data: 'x' },
      ]);
    }
  });

  it('calls a message without an event name "message" and ignores one without data', () => {
    const { messages } = parse(['data: plain\n\nevent: empty\n\n']);
    expect(messages).toEqual([{ event: 'message', data: 'plain' }]);
  });
});
