/** One message of a `text/event-stream` (the fields this console's server sends). */
export interface SseMessage {
  event: string;
  data: string;
}

/**
 * Reads a `text/event-stream` in chunks as they arrive (the HTML standard's parsing rules, less
 * `id:`, which the server does not send): `event:` and `data:` lines make a message at each blank
 * line, lines starting with `:` are comments (the heartbeat), `retry:` sets the reconnect delay.
 */
export class SseParser {
  private buffer = '';
  private event = '';
  private data: string[] = [];

  constructor(
    private readonly onMessage: (message: SseMessage) => void,
    private readonly onRetry: (ms: number) => void = () => undefined,
  ) {}

  push(chunk: string): void {
    this.buffer += chunk;
    let end: number;
    while ((end = this.lineEnd()) >= 0) {
      const line = this.buffer.slice(0, end);
      // A CR LF pair is one line end.
      const skip = this.buffer[end] === '\r' && this.buffer[end + 1] === '\n' ? 2 : 1;
      this.buffer = this.buffer.slice(end + skip);
      this.line(line);
    }
  }

  private lineEnd(): number {
    const n = this.buffer.indexOf('\n');
    const r = this.buffer.indexOf('\r');
    // A lone CR at the end of the chunk may be the first half of CR LF: wait for the next chunk.
    if (r >= 0 && r === this.buffer.length - 1 && n < 0) return -1;
    if (n < 0) return r;
    if (r < 0) return n;
    return Math.min(n, r);
  }

  private line(line: string): void {
    if (line === '') {
      if (this.data.length) this.onMessage({ event: this.event || 'message', data: this.data.join('\n') });
      this.event = '';
      this.data = [];
      return;
    }
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') this.event = value;
    else if (field === 'data') this.data.push(value);
    else if (field === 'retry' && /^\d+$/.test(value)) this.onRetry(Number(value));
  }
}
