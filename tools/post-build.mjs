// Trunk's post-build step. Trunk starts every hook of a stage at once, so the steps that
// must run in order live here, one after another, on the staging folder.
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { withPolicy } from './csp.mjs';
import { precompress } from './precompress.mjs';

const staging = process.env.TRUNK_STAGING_DIR ?? process.argv[2] ?? 'dist';

// The laboratory's stylesheet (the snippets'), loaded with its module by www/shell/lab-loader.js.
copyFileSync('www/snippets/snippets.css', join(staging, 'lab.css'));

// The page's Content-Security-Policy, now that Trunk has written its inline start-up script.
const index = join(staging, 'index.html');
writeFileSync(index, withPolicy(readFileSync(index, 'utf8')));

// Compression comes last: it must see every file in its final form.
const count = precompress(staging);
console.log(`post-build: policy added to index.html; precompressed ${count} files (.br and .gz beside each)`);
