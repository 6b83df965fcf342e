import { parentPort } from 'node:worker_threads';
import type { XlsxSheetRequest } from './xlsx-sheet';
import type { Row } from './resource-hooks';
import { SheetWriter } from './xlsx-sheet';

type Part = XlsxSheetRequest | { rows: Row[] } | { end: true };

const answerError = (error: unknown) =>
  parentPort?.postMessage({ error: error instanceof Error ? error.message : String(error) });

/**
 * The xlsx export thread (xlsx-export.ts): a request, its rows in parts, then `{ end: true }`; answers
 * the workbook's bytes or an error. A failed export ignores the rest of its parts.
 */
let current: SheetWriter | undefined;
parentPort?.on('message', (part: Part) => {
  try {
    if ('sheetName' in part) current = new SheetWriter(part);
    else if ('rows' in part) current?.add(part.rows);
    else if (current) {
      const writer = current;
      current = undefined;
      writer
        .finish()
        .then((bytes) => parentPort?.postMessage({ bytes }, [bytes.buffer as ArrayBuffer]))
        .catch(answerError);
    }
  } catch (error) {
    current = undefined;
    answerError(error);
  }
});
