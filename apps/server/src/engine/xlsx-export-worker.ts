import { parentPort } from 'node:worker_threads';
import type { XlsxSheetRequest } from './xlsx-sheet';
import type { Row } from './resource-hooks';
import { exportRows, type ExportQuestion, type ExportQuestions } from './export/export-reader';
import { SheetWriter } from './xlsx-sheet';

type Part = XlsxSheetRequest | { rows: Row[] } | { end: true } | { answer: unknown };

/** The failure's message, and its code when it has one (a database outage's, for a 503). */
const answerError = (error: unknown) => {
  const code = (error as { code?: unknown } | null)?.code;
  parentPort?.postMessage({
    error: error instanceof Error ? error.message : String(error),
    code: typeof code === 'string' ? code : undefined,
  });
};

const send = (writer: SheetWriter) =>
  writer
    .finish()
    .then((bytes) => parentPort?.postMessage({ bytes }, [bytes.buffer as ArrayBuffer]))
    .catch(answerError);

/**
 * The question this thread waits on (a tenant's names, a page's decoration), answered by the main
 * thread's `{ answer }`; one at a time, as the rows are read.
 */
let waiting: ((answer: unknown) => void) | undefined;
const asked = <T>(question: ExportQuestion) =>
  new Promise<T>((resolve) => {
    waiting = resolve as (answer: unknown) => void;
    parentPort?.postMessage({ ask: question });
  });
const questions: ExportQuestions = {
  tenantNames: (tenantId) => asked({ tenantNames: tenantId }),
  decorate: (input) => asked({ decorate: input }),
};

/** An export whose request carries its source: this thread reads and names the rows itself. */
async function readAndWrite(writer: SheetWriter, source: NonNullable<XlsxSheetRequest['source']>) {
  for await (const rows of exportRows(source, questions)) writer.add(rows);
  await send(writer);
}

/**
 * The xlsx export thread (xlsx-export.ts): a request, then either its rows in parts and
 * `{ end: true }`, or nothing more when the request names the rows' source (the thread reads them,
 * asking for a tenant's names as it meets the tenant and for each page's decoration); answers the workbook's bytes or an error.
 * A failed export ignores the rest of its parts.
 */
let current: SheetWriter | undefined;
parentPort?.on('message', (part: Part) => {
  try {
    if ('answer' in part) {
      const resolve = waiting;
      waiting = undefined;
      resolve?.(part.answer);
    } else if ('sheetName' in part) {
      if (part.source) readAndWrite(new SheetWriter(part), part.source).catch(answerError);
      else current = new SheetWriter(part);
    } else if ('rows' in part) current?.add(part.rows);
    else if (current) {
      const writer = current;
      current = undefined;
      void send(writer);
    }
  } catch (error) {
    current = undefined;
    answerError(error);
  }
});
