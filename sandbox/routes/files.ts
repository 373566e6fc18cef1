import type { Readable } from 'node:stream';

import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

import {
  MEDIA_MODEL,
  modelNotFound,
  ORDER_MODEL,
  POST_TOO_LARGE,
  validationBody,
} from '../laravel.js';
import { sniffMime } from '../mime.js';
import { type FileEntry, receiveForm, type ReceivedForm } from '../multipart-form.js';
import { cleanInput } from '../order-rules.js';
import { answerCreated, sendJson, sendMessage } from '../reply.js';
import type { NewFile } from '../store.js';
import type { RuleSet, UploadedFile } from '../validator.js';
import { validate } from '../validator.js';
import { recordId, type SandboxContext } from './context.js';

const UPLOAD_RULES: RuleSet = [
  ['model_id', [{ kind: 'required' }]],
  ['model_type', [{ kind: 'required' }, { kind: 'string' }, { kind: 'in', values: ['order'] }]],
  [
    'collection_name',
    [{ kind: 'required' }, { kind: 'string' }, { kind: 'in', values: ['clientFiles'] }],
  ],
  ['files', [{ kind: 'required' }, { kind: 'array' }]],
  ['files.*', [{ kind: 'required' }, { kind: 'file' }]],
];

export function fileRoutes(api: FastifyInstance, ctx: SandboxContext): void {
  api.post('/api/files', async (request, reply) => uploadFiles(ctx, request, reply));

  api.get<{ Params: { id: string } }>('/api/files/:id', async (request, reply) => {
    const id = recordId(request.params.id);
    const file = id === null ? undefined : ctx.store.getFile(request.org, id);
    if (!file) return sendMessage(reply, 404, modelNotFound(MEDIA_MODEL, request.params.id));
    return sendStream(reply, ctx.blobs.read(file.blobKey), {
      'content-type': file.mimeType,
      'content-length': file.size,
      'content-disposition': contentDisposition(file.fileName),
    });
  });
}

/**
 * The media controller: the files are written as they arrive, then kept as records of the order
 * when the form validates, and removed when anything refuses it.
 */
async function uploadFiles(
  ctx: SandboxContext,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<FastifyReply> {
  if (!request.isMultipart()) {
    return sendMessage(
      reply,
      415,
      'Files must be sent as multipart/form-data (fields model_id, model_type, collection_name, files[]).',
    );
  }
  const form: ReceivedForm = { fields: {}, files: undefined, totalBytes: 0, stored: [] };
  const discard = () => Promise.all(form.stored.map((blob) => ctx.blobs.remove(blob.key)));
  try {
    await receiveForm(request, ctx.blobs, ctx.options, form);
  } catch (error) {
    await discard(); // an aborted body leaves nothing behind
    throw error;
  }
  // PHP refuses a chunked body past post_max_size once it has read it.
  if (form.totalBytes > ctx.options.postMaxBytes) {
    await discard();
    return sendMessage(reply, 413, POST_TOO_LARGE);
  }
  const fields = cleanInput(form.fields) as Record<string, string | null>;
  const modelId = fields.model_id;
  const orderId = typeof modelId === 'string' ? recordId(modelId) : null;
  if (typeof modelId === 'string' && !ctx.store.getOrder(request.org, orderId ?? -1)) {
    await discard();
    return sendMessage(reply, 404, modelNotFound(ORDER_MODEL, modelId));
  }
  const files =
    form.files === undefined
      ? undefined
      : 'list' in form.files
        ? form.files.list
        : [form.files.single];
  const errors = validate(
    {
      ...fields,
      ...(form.files !== undefined && {
        files: 'list' in form.files ? form.files.list.map(asInput) : asInput(form.files.single),
      }),
    },
    UPLOAD_RULES,
  );
  if (Object.keys(errors).length > 0 || orderId === null || files === undefined) {
    await discard();
    return sendJson(reply, 422, validationBody(errors));
  }
  const ids = ctx.store.addFiles(fileRecords(files, request.org, orderId));
  // The controller answers with the last media record it added.
  return answerCreated(request, reply, { id: ids.at(-1) });
}

/** The uploaded files among the `files` entries, as the records the store keeps. */
function fileRecords(files: readonly FileEntry[], org: string, orderId: number): NewFile[] {
  return files.flatMap((entry) =>
    entry.kind === 'file'
      ? [
          {
            org,
            orderId,
            collection: 'clientFiles',
            fileName: entry.fileName,
            mimeType: sniffMime(entry.written.head),
            size: entry.written.size,
            sha256: entry.written.sha256,
            blobKey: entry.written.key,
          },
        ]
      : [],
  );
}

/** A `files` entry as the validator sees it: an upload, nothing, or text. */
function asInput(entry: FileEntry): UploadedFile | string | null {
  if (entry.kind === 'file') return { kind: 'uploaded-file', ok: entry.written.complete };
  return entry.kind === 'text' ? entry.value : null;
}

function sendStream(
  reply: FastifyReply,
  stream: Readable,
  headers: Record<string, string | number>,
): FastifyReply {
  return reply.code(200).headers(headers).send(stream);
}

/** Symfony's attachment disposition: an ASCII fallback, and the UTF-8 name when it differs. */
function contentDisposition(fileName: string): string {
  const fallback = fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  const disposition = `attachment; filename="${fallback}"`;
  if (fallback === fileName) return disposition;
  return `${disposition}; filename*=utf-8''${encodeURIComponent(fileName)}`;
}
