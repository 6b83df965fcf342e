import { AuthPaths, type QrScanView, type QrSession, type QrView, type TokenResponse } from '@mes/contracts';
import { request, requestData } from './http';

// The pages name the wire shapes through this file, next to the calls that return them.
export type { QrScanView, QrSession, QrStatus, QrView } from '@mes/contracts';

export const createQrSession = (tenantId: string) =>
  requestData<QrSession>(AuthPaths.qrCode, {
    params: { tenantId, origin: window.location.origin },
    noToken: true,
    silent: true,
  });

export const fetchQrStatus = (code: string, state: string) =>
  requestData<QrView>(AuthPaths.qrStatus, { params: { code, state }, noToken: true, silent: true });

/** The spec's `qrlogin` (grant_type qr). */
export const signInWithQr = (tenantId: string, code: string, state: string) =>
  request<TokenResponse>(AuthPaths.qrLogin, {
    method: 'POST',
    noToken: true,
    silent: true,
    headers: { 'Tenant-Id': tenantId, 'User-Type': 'web' },
    form: true,
    data: { tenantId, code, state, grant_type: 'qr', scope: 'all' },
  });

const qrAction = (route: string) => (code: string) =>
  requestData<QrScanView>(route, {
    method: 'POST',
    form: true,
    silent: true,
    data: { code },
  });

export const scanQr = qrAction(AuthPaths.qrScan);
export const confirmQr = qrAction(AuthPaths.qrConfirm);
export const cancelQr = qrAction(AuthPaths.qrCancel);
