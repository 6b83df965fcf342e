import type { TokenResponse } from '@mes/contracts';
import { request, requestData } from './http';

/** `GET /blade-auth/oauth/qrcode`: a QR sign-in session for the sign-in page. */
export interface QrSession {
  code: string;
  /** Kept by the page: polling and signing in need it; the QR link does not carry it. */
  state: string;
  tenantId: string;
  /** The confirm page's address, encoded in the image. */
  link: string;
  /** `data:image/svg+xml;base64,...` */
  image: string;
  /** Seconds. */
  expiresIn: number;
}

export type QrStatus = 'waiting' | 'scanned' | 'confirmed' | 'expired' | 'cancelled';

export interface QrView {
  status: QrStatus;
  expiresIn: number;
}

/** What the confirming device is shown. */
export interface QrScanView extends QrView {
  tenantId: string;
  requestIp: string;
  requestAgent: string;
  requestTime: string;
}

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
