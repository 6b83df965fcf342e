import type { QrScanView, QrSession, QrView, TokenResponse } from '@mes/contracts';
import { request, requestData } from './http';

// The pages name the wire shapes through this file, next to the calls that return them.
export type { QrScanView, QrSession, QrStatus, QrView } from '@mes/contracts';

export const createQrSession = (tenantId: string) =>
  requestData<QrSession>('/blade-auth/oauth/qrcode', {
    params: { tenantId, origin: window.location.origin },
    noToken: true,
    silent: true,
  });

export const fetchQrStatus = (code: string, state: string) =>
  requestData<QrView>('/blade-auth/oauth/qrcode/status', { params: { code, state }, noToken: true, silent: true });

/** The spec's `POST /blade-auth/oauth/qrlogin` (grant_type qr). */
export const signInWithQr = (tenantId: string, code: string, state: string) =>
  request<TokenResponse>('/blade-auth/oauth/qrlogin', {
    method: 'POST',
    noToken: true,
    silent: true,
    headers: { 'Tenant-Id': tenantId, 'User-Type': 'web' },
    form: true,
    data: { tenantId, code, state, grant_type: 'qr', scope: 'all' },
  });

const qrAction = (action: 'scan' | 'confirm' | 'cancel') => (code: string) =>
  requestData<QrScanView>(`/blade-auth/oauth/qrcode/${action}`, {
    method: 'POST',
    form: true,
    silent: true,
    data: { code },
  });

export const scanQr = qrAction('scan');
export const confirmQr = qrAction('confirm');
export const cancelQr = qrAction('cancel');
