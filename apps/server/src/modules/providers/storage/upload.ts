import { apiScopeCodes, ossResource, type UploadedFile } from '@mes/contracts';
import type { AppContext } from '../../../app-context';
import { isAdministrator, splitIds, type AuthContext } from '../../../platform/auth/request-auth';
import { nextId } from '../../../platform/db/ids';
import { attach } from '../../../platform/db/schema';
import { tenantScope } from '../../../platform/tenancy/tenant-scope';
import { badRequest } from '../../../platform/http/errors';
import { coversRoute } from '../../../platform/permissions/grants';
import {
  attachmentDisposition,
  DANGEROUS_EXTENSIONS,
  extensionOf,
  IMAGE_TYPES,
  imageForName,
  isSafeFileName,
  sniffImage,
} from './file-types';
import { newObjectKey, type StorageProvider } from './provider';
import { uploadTarget } from './tenant-storage';

/** General files (attachments, documents in forms). */
export const MAX_FILE_BYTES = 20 * 1024 * 1024;
/** The spec's avatar limit (500 KB, JPG or PNG). */
export const MAX_AVATAR_BYTES = 500 * 1024;

export const UploadMessages = {
  noFile: { zh: '请选择要上传的文件', en: 'Choose a file to upload' },
  badName: { zh: '文件名不正确', en: 'The file name is invalid' },
  badKind: { zh: '上传类型不正确', en: 'The upload kind is invalid' },
  empty: { zh: '上传的文件不能为空', en: 'The uploaded file must not be empty' },
  tooLarge: { zh: '上传的文件不能超过 20MB', en: 'The uploaded file must not exceed 20 MB' },
  avatarType: { zh: '只能上传 JPG 或 PNG 格式的图片', en: 'Only JPG or PNG images can be uploaded' },
  avatarTooLarge: { zh: '上传的文件不能超过 500KB', en: 'The uploaded file must not exceed 500 KB' },
  dangerous: (ext: string) => ({
    zh: `不允许上传 .${ext} 类型的文件`,
    en: `Files of type .${ext} may not be uploaded`,
  }),
  notImage: (ext: string) => ({
    zh: `文件内容不是 .${ext} 格式的图片`,
    en: `The file's content is not a .${ext} image`,
  }),
} as const;

/** `kind=avatar`: a JPG or PNG of at most 500 KB; without it any allowed file up to 20 MB. */
export type UploadKind = 'file' | 'avatar';

export function uploadKindOf(value: unknown): UploadKind {
  if (value === undefined || value === '' || value === 'file') return 'file';
  if (value === 'avatar') return 'avatar';
  throw badRequest(UploadMessages.badKind);
}

export const maxBytesOf = (kind: UploadKind) => (kind === 'avatar' ? MAX_AVATAR_BYTES : MAX_FILE_BYTES);
export const tooLargeMessage = (kind: UploadKind) =>
  kind === 'avatar' ? UploadMessages.avatarTooLarge : UploadMessages.tooLarge;

/** A checked upload: the extension it is stored under and how the provider should label it. */
export interface CheckedFile {
  extension: string;
  contentType: string;
  contentDisposition?: string;
}

/** Refuses a name carrying a path or a refused type before any byte is read. */
export function checkName(originalName: string | undefined, kind: UploadKind): void {
  if (!originalName || !isSafeFileName(originalName)) throw badRequest(UploadMessages.badName);
  const ext = extensionOf(originalName);
  if (kind === 'file' && DANGEROUS_EXTENSIONS.has(ext)) throw badRequest(UploadMessages.dangerous(ext));
}

/**
 * Decides what the bytes are: an avatar must be a PNG or JPEG by content; a file named as an
 * image must be that image; an image under another name is stored as the image it is.
 */
export function checkContent(originalName: string, bytes: Buffer, kind: UploadKind): CheckedFile {
  const image = sniffImage(bytes);
  if (kind === 'avatar') {
    if (image !== 'png' && image !== 'jpg') throw badRequest(UploadMessages.avatarType);
    if (bytes.length > MAX_AVATAR_BYTES) throw badRequest(UploadMessages.avatarTooLarge);
    return { extension: image, contentType: IMAGE_TYPES[image] };
  }
  if (bytes.length === 0) throw badRequest(UploadMessages.empty);
  if (bytes.length > MAX_FILE_BYTES) throw badRequest(UploadMessages.tooLarge);
  const ext = extensionOf(originalName);
  if (image) return { extension: image, contentType: IMAGE_TYPES[image] };
  if (imageForName(ext)) throw badRequest(UploadMessages.notImage(ext));
  return {
    extension: ext,
    contentType: 'application/octet-stream',
    contentDisposition: attachmentDisposition(originalName),
  };
}

const PUT_FILE_PATH = `/api${ossResource.api}/endpoint/put-file`;

/** `code=` picks a configuration by hand: that is configuring storage, so it needs `oss:write`. */
export async function mayChooseConfig(ctx: AppContext, auth: AuthContext): Promise<boolean> {
  if (isAdministrator(auth)) return true;
  const grants = await ctx.grants.apiGrants(auth.roleIds);
  return coversRoute(grants, apiScopeCodes(ossResource.code).write, PUT_FILE_PATH);
}

/**
 * Stores checked bytes with the tenant's provider and records the attachment. Nothing is left
 * behind on failure: a provider error stores no row, and a failed insert deletes the object.
 */
export async function storeUpload(
  ctx: AppContext,
  auth: AuthContext,
  upload: { originalName: string; bytes: Buffer; checked: CheckedFile; code?: string },
  log: { warn(obj: object, msg: string): void },
): Promise<UploadedFile> {
  const provider: StorageProvider = await uploadTarget(ctx, auth.tenantId, upload.code);
  const now = new Date(ctx.clock.now());
  const key = newObjectKey(now.getTime(), upload.checked.extension);
  const stored = await provider.put({
    key,
    bytes: upload.bytes,
    contentType: upload.checked.contentType,
    contentDisposition: upload.checked.contentDisposition,
  });
  const id = nextId();
  try {
    await tenantScope(ctx.db, auth.tenantId)
      .insert(attach)
      .values({
        id,
        originalName: upload.originalName,
        name: key,
        extension: upload.checked.extension,
        attachSize: upload.bytes.length,
        link: stored.link,
        domainUrl: stored.domainUrl,
        ossCode: provider.ossCode,
        createUser: auth.userId,
        createDept: splitIds(auth.deptId)[0] ?? null,
        createTime: now,
        updateUser: auth.userId,
        updateTime: now,
      });
  } catch (error) {
    await provider
      .remove(key)
      .catch((e: unknown) => log.warn({ err: e, key }, 'could not remove an unrecorded upload'));
    throw error;
  }
  await ctx.totals.changed('attach', auth.tenantId);
  return { link: stored.link, domain: stored.domainUrl, name: key, originalName: upload.originalName, attachId: id };
}
