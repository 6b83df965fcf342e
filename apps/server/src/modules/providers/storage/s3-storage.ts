import type * as S3SdkModule from '@aws-sdk/client-s3';
import type { S3Client } from '@aws-sdk/client-s3';
import http from 'node:http';
import https from 'node:https';
import { Readable } from 'node:stream';
import { OssCategory } from '@mes/contracts';
import { badRequest, HttpError } from '../../../platform/http/errors';
import { guardedLookup, OutboundError, resolveOutbound } from '../../../platform/net/outbound-guard';
import type { OutboundPolicy } from '../../../platform/net/outbound-policy';
import type { PutObject, StorageProvider, StoredLocation } from './provider';

/** What an S3-compatible configuration needs, secret already opened. */
export interface S3Settings {
  ossCode: string;
  category: number;
  endpoint: string;
  accessKey: string;
  secretKey: string;
  bucketName: string;
  appId: string;
  region: string;
}

/** Connection and whole-request limit of a provider call (the console's request time-out). */
export const S3_TIMEOUT_MS = 10_000;
const DEFAULT_REGION = 'us-east-1';

export const S3Messages = {
  denied: {
    zh: '存储服务拒绝访问,请检查 AccessKey、SecretKey 以及空间的访问权限',
    en: `The storage service refused access: check the AccessKey, SecretKey and the bucket's permissions`,
  },
  noBucket: (bucket: string) => ({ zh: `存储空间 ${bucket} 不存在`, en: `The bucket ${bucket} does not exist` }),
  unreachable: (endpoint: string) => ({
    zh: `无法连接存储服务 ${endpoint},请检查资源地址`,
    en: `The storage service ${endpoint} cannot be reached: check the endpoint`,
  }),
  failed: (status: number | undefined, code: string) => ({
    zh: `存储服务出错(${status ?? '-'} ${code})`,
    en: `Storage service error (${status ?? '-'} ${code})`,
  }),
} as const;

/**
 * Region of the signature when the configuration leaves it empty, read from the providers'
 * documented S3 endpoints (`s3.oss-cn-hangzhou.aliyuncs.com`, `cos.ap-guangzhou.myqcloud.com`,
 * `s3.cn-east-1.qiniucs.com`); anything else signs for `us-east-1`, which MinIO accepts.
 */
export function regionOf(settings: Pick<S3Settings, 'region' | 'endpoint'>): string {
  if (settings.region.trim()) return settings.region.trim();
  let host = '';
  try {
    host = new URL(settings.endpoint).hostname;
  } catch {
    return DEFAULT_REGION;
  }
  const found =
    /^(?:s3\.)?oss-([a-z0-9-]+?)(?:-internal)?\.aliyuncs\.com$/.exec(host)?.[1] ??
    /^cos\.([a-z0-9-]+)\.myqcloud\.com$/.exec(host)?.[1] ??
    /^s3[.-]([a-z0-9-]+)\.qiniucs\.com$/.exec(host)?.[1];
  return found ?? DEFAULT_REGION;
}

/** Tencent COS names buckets `<name>-<APPID>`; the configuration may hold either form. */
export function bucketOf(settings: Pick<S3Settings, 'category' | 'bucketName' | 'appId'>): string {
  const appId = settings.appId.trim();
  if (settings.category !== OssCategory.tencent || !appId || settings.bucketName.endsWith(`-${appId}`))
    return settings.bucketName;
  return `${settings.bucketName}-${appId}`;
}

/**
 * MinIO (and any self-hosted endpoint configured as MinIO) is addressed by path, since its
 * host has no per-bucket names; Aliyun OSS refuses path-style requests, and COS and Qiniu
 * document virtual-hosted style, so those put the bucket in the host name.
 */
export const usesPathStyle = (category: number) => category === OssCategory.minio;

/** Endpoint without a trailing slash (`https://minio.example.com:9000`). */
const baseOf = (endpoint: string) => endpoint.trim().replace(/\/+$/, '');

/** `<domainUrl>/<key>`: `<endpoint>/<bucket>` path-style, `<scheme>://<bucket>.<host>` otherwise. */
export function domainOf(settings: Pick<S3Settings, 'category' | 'endpoint' | 'bucketName' | 'appId'>): string {
  const base = baseOf(settings.endpoint);
  const bucket = bucketOf(settings);
  if (usesPathStyle(settings.category)) return `${base}/${bucket}`;
  const url = new URL(base);
  return `${url.protocol}//${bucket}.${url.host}${url.pathname.replace(/\/+$/, '')}`;
}

type S3Sdk = typeof S3SdkModule;
let loading: Promise<S3Sdk> | undefined;
/** The SDK takes about 200 ms to load: it is loaded by the first S3 call, not at server start. */
const sdk = (): Promise<S3Sdk> => (loading ??= import('@aws-sdk/client-s3'));

/** Provider replies are reported by their S3 error code, never with request details. */
function providerError(error: unknown, settings: S3Settings, { S3ServiceException }: S3Sdk): HttpError {
  if (error instanceof HttpError) return error;
  if (error instanceof S3ServiceException) {
    const code = /^[A-Za-z.]{1,64}$/.test(error.name) ? error.name : 'UnknownError';
    const status = error.$metadata?.httpStatusCode;
    if (code === 'NoSuchBucket') return badRequest(S3Messages.noBucket(bucketOf(settings)));
    if (['InvalidAccessKeyId', 'SignatureDoesNotMatch', 'AccessDenied', 'InvalidToken', 'Forbidden'].includes(code))
      return badRequest(S3Messages.denied);
    if (status === 403) return badRequest(S3Messages.denied);
    return badRequest(S3Messages.failed(status, code));
  }
  return badRequest(S3Messages.unreachable(baseOf(settings.endpoint)));
}

const isMissing = (error: unknown, { S3ServiceException }: S3Sdk) =>
  error instanceof S3ServiceException &&
  (error.name === 'NoSuchKey' || error.name === 'NotFound' || error.$metadata?.httpStatusCode === 404);

/** An S3-compatible bucket (MinIO, Aliyun OSS, Tencent COS, Qiniu Kodo) reached with the AWS SDK. */
export class S3Storage implements StorageProvider {
  readonly ossCode: string;

  /**
   * `outbound` gives the platform's current outbound policy: the endpoint is checked before each
   * call, and every connection the SDK opens (virtual-hosted bucket names included) resolves
   * through the guard, so the secret is never signed for a refused address.
   */
  constructor(
    private readonly settings: S3Settings,
    private readonly outbound: () => Promise<OutboundPolicy>,
  ) {
    this.ossCode = settings.ossCode;
  }

  private async client({ S3Client }: S3Sdk): Promise<S3Client> {
    const s = this.settings;
    const policy = await this.outbound();
    let host = '';
    try {
      host = new URL(baseOf(s.endpoint)).hostname;
    } catch {
      throw badRequest(S3Messages.unreachable(baseOf(s.endpoint)));
    }
    try {
      await resolveOutbound(policy, host);
    } catch (e) {
      if (e instanceof OutboundError && e.kind === 'refused') throw badRequest(e.text);
      throw badRequest(S3Messages.unreachable(baseOf(s.endpoint)));
    }
    const lookup = guardedLookup(policy);
    return new S3Client({
      endpoint: baseOf(s.endpoint),
      region: regionOf(s),
      forcePathStyle: usesPathStyle(s.category),
      credentials: { accessKeyId: s.accessKey, secretAccessKey: s.secretKey },
      requestHandler: {
        connectionTimeout: S3_TIMEOUT_MS,
        requestTimeout: S3_TIMEOUT_MS,
        httpAgent: new http.Agent({ lookup }),
        httpsAgent: new https.Agent({ lookup }),
      },
      maxAttempts: 2,
      // The SDK's default CRC32 checksum headers are refused by several S3-compatible services.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  private async run<T>(task: (client: S3Client, lib: S3Sdk) => Promise<T>): Promise<T> {
    const lib = await sdk();
    const client = await this.client(lib);
    try {
      return await task(client, lib);
    } catch (error) {
      throw providerError(error, this.settings, lib);
    } finally {
      client.destroy();
    }
  }

  async put(object: PutObject): Promise<StoredLocation> {
    const bucket = bucketOf(this.settings);
    await this.run((client, { PutObjectCommand }) =>
      client.send(
        new PutObjectCommand({
          Bucket: bucket,
          Key: object.key,
          Body: object.bytes,
          ContentLength: object.bytes.length,
          ContentType: object.contentType,
          ContentDisposition: object.contentDisposition,
        }),
      ),
    );
    const domainUrl = domainOf(this.settings);
    return { link: `${domainUrl}/${object.key}`, domainUrl };
  }

  async open(key: string): Promise<Readable | undefined> {
    const lib = await sdk();
    const { GetObjectCommand } = lib;
    const client = await this.client(lib);
    try {
      const reply = await client.send(new GetObjectCommand({ Bucket: bucketOf(this.settings), Key: key }));
      const body = reply.Body;
      if (!(body instanceof Readable)) throw new Error('the S3 client returned no stream');
      // The client's sockets are released once the body has been read or abandoned.
      body.once('close', () => client.destroy());
      return body;
    } catch (error) {
      client.destroy();
      if (isMissing(error, lib)) return undefined;
      throw providerError(error, this.settings, lib);
    }
  }

  async remove(key: string): Promise<void> {
    // S3 answers 204 for a key that does not exist, so a repeated removal is not an error.
    await this.run((client, { DeleteObjectCommand }) =>
      client.send(new DeleteObjectCommand({ Bucket: bucketOf(this.settings), Key: key })),
    );
  }
}
