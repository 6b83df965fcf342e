import { eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AuthPaths, bilingual, DEFAULT_TENANT_ID, invalidParamText, smsResource } from '@mes/contracts';
import type { AppContext } from '../../app-context';
import { registerResource, type ChangeArgs } from '../../engine/resource-routes';
import { requireAuth } from '../../platform/auth/request-auth';
import { sms } from '../../platform/db/schema';
import { tenantScope } from '../../platform/tenancy/tenant-scope';
import { ok } from '../../platform/http/envelope';
import { requestLanguage } from '../../platform/http/request-language';
import { badRequest } from '../../platform/http/errors';
import { paramsOf } from '../../platform/http/request-params';
import { destinationOf, OutboundError, refuseForbiddenUrl } from '../../platform/net/outbound-guard';
import { outboundPolicy } from '../../platform/net/outbound-policy';
import { sendSignInCode } from './sms/sign-in-codes';
import { SmsMessages } from './sms/sms-messages';
import { checkSettings, configByCode, parsePhones, parseTemplateParams, sendSms } from './sms/sms-sender';

/** API scope of `endpoint/**` (seeded as 短信发送). */
export const SMS_SEND_SCOPE = `${smsResource.code}:send`;
const TENANT_ID = /^[0-9A-Za-z_-]{1,12}$/;

/**
 * A configuration is stored only if its provider is known and has what it needs to send; an
 * update that leaves SecretKey empty keeps the stored one, which then counts. The stored secret
 * never follows an edited endpoint to a new address: that edit must carry the SecretKey again.
 * An endpoint the platform's outbound policy refuses is refused here already.
 */
async function checkBeforeStore(ctx: AppContext, { tx, auth, values, existing }: ChangeArgs): Promise<void> {
  const merged: Record<string, unknown> = { ...existing, ...values };
  const retyped = typeof values.secretKey === 'string' && values.secretKey !== '';
  if (existing && !retyped) {
    const [stored] = await tenantScope(tx, auth.tenantId)
      .select(sms, { secretKey: sms.secretKey })
      .where(eq(sms.id, existing.id as string));
    merged.secretKey = stored?.secretKey ?? '';
    if (merged.secretKey && destinationOf(merged.endpoint) !== destinationOf(existing.endpoint))
      throw badRequest(SmsMessages.secretForNewEndpoint);
  }
  checkSettings(merged);
  if (typeof merged.endpoint === 'string' && merged.endpoint.trim()) {
    try {
      await refuseForbiddenUrl(await outboundPolicy(ctx.db), merged.endpoint);
    } catch (e) {
      if (e instanceof OutboundError) throw badRequest(e.text);
      throw e;
    }
  }
}

const text = (value: unknown) =>
  typeof value === 'string' ? value.trim() : typeof value === 'number' ? String(value) : '';

function tenantOf(request: FastifyRequest, params: Record<string, unknown>): string {
  const header = request.headers['tenant-id'];
  const tenantId = text(params.tenantId) || (typeof header === 'string' ? header.trim() : '') || DEFAULT_TENANT_ID;
  if (!TENANT_ID.test(tenantId))
    throw badRequest(invalidParamText('tenantId', { zh: '应为租户编号', en: 'must be a tenant ID' }));
  return tenantId;
}

/** SMS configurations, the test send of the configuration screen and the sign-in code request. */
export function registerSmsRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerResource(app, ctx, {
    def: smsResource,
    table: sms,
    hooks: { beforeChange: (args) => checkBeforeStore(ctx, args) },
  });

  // `code` names the configuration (its smsCode), `phones` is a comma list, `params` the text
  // of a JSON object with the template's variables.
  app.post(
    `/api${smsResource.api}/endpoint/send-message`,
    { config: { apiScope: SMS_SEND_SCOPE } },
    async (request) => {
      const auth = requireAuth(request);
      const params = paramsOf(request);
      const code = text(params.code);
      if (!code) throw badRequest(bilingual('missingParam', 'code'));
      const phones = parsePhones(params.phones);
      const templateParams = parseTemplateParams(params.params);
      const config = await configByCode(ctx, auth.tenantId, code);
      await sendSms(ctx, config, { phones, params: templateParams }, request.log);
      return ok(true, SmsMessages.sent[requestLanguage(request)]);
    },
  );

  // Phone sign-in, step one: a code to the phone (step two is grant_type=sms on the token endpoint).
  app.post(`/api${AuthPaths.smsCode}`, { config: { public: true } }, async (request) => {
    const params = paramsOf(request);
    await sendSignInCode(ctx, {
      tenantId: tenantOf(request, params),
      phone: text(params.phone),
      ip: request.ip,
      log: request.log,
    });
    return ok(true, SmsMessages.codeSent[requestLanguage(request)]);
  });
}
