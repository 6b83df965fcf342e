// Writes .gz and .br next to every built asset, so the server sends them precompressed
// (@fastify/static `preCompressed`) instead of compressing on each request.
// The async zlib calls run on libuv's thread pool, so the files compress on every core at once
// (brotli at quality 11 on the 14 MB PDF worker alone is most of a minute on one core).
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

const dist = process.argv[2] ?? 'dist';
const compressible = /\.(js|css|html|svg|json|txt)$/;
const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

async function* assets(dir) {
  for (const name of await readdir(dir)) {
    const file = path.join(dir, name);
    const info = await stat(file);
    if (info.isDirectory()) yield* assets(file);
    else if (compressible.test(name) && info.size > 1024) yield { file, size: info.size };
  }
}

async function compress(file) {
  const body = await readFile(file);
  const [gz, br] = await Promise.all([
    gzipAsync(body, { level: 9 }),
    brotli(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } }),
  ]);
  await Promise.all([writeFile(`${file}.gz`, gz), writeFile(`${file}.br`, br)]);
}

// Largest first, so the longest brotli starts at once instead of last.
const files = [];
for await (const asset of assets(dist)) files.push(asset);
files.sort((a, b) => b.size - a.size);
await Promise.all(files.map(({ file }) => compress(file)));
