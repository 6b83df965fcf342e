import { parentPort } from 'node:worker_threads';
import type { XlsxSheetRequest } from './xlsx-sheet';
import type { Row } from './resource-hooks';
import { exportRows } from './export/export-reader';
import { failureMessage, threadQuestions } from './export/thread-questions';
import { SheetWriter } from './xlsx-sheet';

type Part = XlsxSheetRequest | { rows: Row[] } | { end: true } | { answer: unknown };

const answerError = (error: unknown) => parentPort?.postMessage(failureMessage(error));

const send = (writer: SheetWriter) =>
  writer
    .finish()
    .then((bytes) => parentPort?.postMessage({ bytes }, [bytes.buffer as ArrayBuffer]))
    .catch(answerError);

const { questions, answered } = threadQuestions(parentPort);

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
    if ('answer' in part) answered(part.answer);
    else if ('sheetName' in part) {
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
