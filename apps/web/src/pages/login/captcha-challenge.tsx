import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { CaptchaResponse } from '@mes/contracts';
import { asksForCaptcha, fetchCaptcha } from '../../api/auth';
import { ApiError } from '../../api/http';
import { Input } from '../../shell/controls/light-input';
import { Field } from './field';

/**
 * The captcha a password form shows once the server asks for one (captcha mode, or failures
 * past a limit: `error_code` 428). A captcha is good for one attempt, so a new one is fetched
 * after every refused attempt while it is needed.
 */
export function useCaptchaChallenge() {
  const [needed, setNeeded] = useState(false);
  const [captcha, setCaptcha] = useState<CaptchaResponse>();
  const [code, setCode] = useState('');

  const refresh = useCallback(() => {
    setCode('');
    void fetchCaptcha()
      .then(setCaptcha)
      .catch(() => undefined);
  }, []);

  /** From now on every attempt carries a captcha. */
  const require = useCallback(() => {
    setNeeded(true);
    refresh();
  }, [refresh]);

  /** After a refused attempt: a new captcha if one is (now) needed. */
  const afterFailure = (error: unknown) => {
    if (needed || (error instanceof ApiError && asksForCaptcha(error.body))) require();
  };

  /** The solved captcha to send, or undefined when none is needed. */
  const solved = needed && captcha ? { key: captcha.key, code: code.trim() } : undefined;
  const missing = needed && !code.trim();
  return { needed, captcha, code, setCode, refresh, require, afterFailure, solved, missing };
}

export type CaptchaChallenge = ReturnType<typeof useCaptchaChallenge>;

/** The code input and its image (click for another). */
export function CaptchaField({
  challenge,
  error,
  onEdit,
}: {
  challenge: CaptchaChallenge;
  error?: string;
  onEdit?: () => void;
}) {
  const { t } = useTranslation('login');
  if (!challenge.needed) return null;
  const { captcha } = challenge;
  return (
    <Field label={t('captcha')} error={error}>
      <div className="mes-captcha" data-testid="login-captcha">
        <Input
          data-testid="login-captcha-code"
          value={challenge.code}
          onChange={(e) => {
            challenge.setCode(e.target.value);
            onEdit?.();
          }}
          status={error ? 'error' : undefined}
        />
        {captcha && (
          <img src={captcha.image} alt={t('refreshCaptcha')} title={t('refreshCaptcha')} onClick={challenge.refresh} />
        )}
      </div>
    </Field>
  );
}
