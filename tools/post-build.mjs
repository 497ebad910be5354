// Trunk's post-build step. Trunk starts every hook of a stage at once, so the steps that
// must run in order live here, one after another, on the staging folder.
import { precompress } from './precompress.mjs';

const staging = process.env.TRUNK_STAGING_DIR ?? process.argv[2] ?? 'dist';
// Compression comes last: it must see every file in its final form.
const count = precompress(staging);
console.log(`post-build: precompressed ${count} files (.br and .gz beside each)`);
