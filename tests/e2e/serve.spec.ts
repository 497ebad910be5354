// The build carries brotli and gzip copies of its files, and the server of `make serve`
// sends the best one the browser accepts, with the plain file for everyone else.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { request as httpRequest } from 'node:http';
import { test, expect, openApp } from './fixtures';

const DIST = fileURLToPath(new URL('../../dist', import.meta.url));

/** A raw GET that leaves the body as sent, so the test sees the encoding on the wire. */
function rawGet(url: string, acceptEncoding?: string): Promise<{ headers: Record<string, unknown>; body: Buffer }> {
  return new Promise((done, fail) => {
    const headers = acceptEncoding === undefined ? {} : { 'Accept-Encoding': acceptEncoding };
    httpRequest(url, { headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk) => chunks.push(chunk));
      response.on('end', () => done({ headers: response.headers, body: Buffer.concat(chunks) }));
    })
      .on('error', fail)
      .end();
  });
}

const wasmName = () => readdirSync(DIST).find((name) => name.endsWith('.wasm'))!;

test('the wasm goes out as brotli, gzip or plain, whichever the request accepts', async ({ server }) => {
  const name = wasmName();
  const plain = readFileSync(join(DIST, name));
  const url = `${server.url}/${name}`;

  const brotli = await rawGet(url, 'gzip, deflate, br');
  expect(brotli.headers['content-encoding']).toBe('br');
  expect(brotli.headers['vary']).toBe('Accept-Encoding');
  expect(brotli.body.length).toBeLessThan(plain.length / 2);
  expect(brotliDecompressSync(brotli.body).equals(plain)).toBe(true);

  const gzip = await rawGet(url, 'gzip, br;q=0');
  expect(gzip.headers['content-encoding']).toBe('gzip');
  expect(gunzipSync(gzip.body).equals(plain)).toBe(true);

  const identity = await rawGet(url);
  expect(identity.headers['content-encoding']).toBeUndefined();
  expect(identity.body.equals(plain)).toBe(true);
});

test('the page starts from compressed files as from plain ones', async ({ page, server }) => {
  const encodings: string[] = [];
  page.on('response', (response) => {
    if (response.url().endsWith('.wasm')) encodings.push(response.headers()['content-encoding'] ?? 'none');
  });
  await openApp(page);
  await expect(page.getByRole('tab', { name: 'Gist' })).toHaveAttribute('aria-selected', 'true');
  // The lesson's wasm, and the lab's if idle came first: every one of them compressed.
  expect(encodings.length).toBeGreaterThan(0);
  expect(encodings.filter((encoding) => encoding !== 'br')).toEqual([]);
  void server;
});
