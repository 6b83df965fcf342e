import { ERROR_LOG_UPLOAD_PATH } from '@mes/contracts';
import { requestData } from '../../api/http';
import { batches, type ErrorLogEntry } from './error-entry';
import { useErrorLog } from './error-log-store';

/**
 * Sends the local log to the server in batches the server accepts, dropping each batch locally
 * once stored; entries recorded meanwhile stay. Rejects (the API client has shown the error)
 * when a batch fails, leaving that batch and the rest in the local log.
 */
export async function uploadLocalLogs(): Promise<void> {
  for (const batch of batches<ErrorLogEntry>(useErrorLog.getState().logs)) {
    await requestData<null>(ERROR_LOG_UPLOAD_PATH, { method: 'POST', data: batch });
    useErrorLog.getState().remove(batch);
  }
}
