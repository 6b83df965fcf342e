/**
 * QR sign-in as it travels (docs/sign-in.md): the sign-in page asks for a session and polls its
 * status; a signed-in user of the same tenant scans, then confirms or cancels it.
 */

export type QrStatus = 'waiting' | 'scanned' | 'confirmed' | 'expired' | 'cancelled';

/** `GET /api/blade-auth/oauth/qrcode`: a QR sign-in session for the sign-in page. */
export interface QrSession {
  code: string;
  /** Kept by the page: polling and signing in need it; the QR link does not carry it. */
  state: string;
  tenantId: string;
  /** The confirm page's address, encoded in the image. */
  link: string;
  /** `data:image/svg+xml;base64,...` */
  image: string;
  /** Seconds left to scan and confirm. */
  expiresIn: number;
}

/** `GET …/qrcode/status`, and the answer to confirm and cancel. */
export interface QrView {
  status: QrStatus;
  /** Seconds left to scan and confirm (0 once ended). */
  expiresIn: number;
}

/** `POST …/qrcode/scan`: what the confirming device is shown before it confirms. */
export interface QrScanView extends QrView {
  tenantId: string;
  requestIp: string;
  requestAgent: string;
  /** When the sign-in page asked for the code, `yyyy-MM-dd HH:mm:ss`. */
  requestTime: string;
}
