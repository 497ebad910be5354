// The course packages' manifests (`make package` writes them into packages/) against the ADL
// schemas the packages carry, with xmllint; and manifests with a planted mistake, which the
// same check must refuse. Run by `make test` after the release build and `make package`.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { FORMATS, manifest, schemaFiles, validate } from '../../tools/package.mjs';

const PACKAGES = new URL('../../packages/', import.meta.url).pathname;

for (const format of Object.keys(FORMATS)) {
  test(`${format}: the package's manifest is valid against the schemas it ships, at its root`, () => {
    const folder = join(PACKAGES, format);
    validate(format, join(folder, 'imsmanifest.xml'), folder);
    const listed = execFileSync('unzip', ['-Z1', join(PACKAGES, `lease-lab-${format}.zip`)], { encoding: 'utf8' })
      .split('\n');
    for (const file of ['imsmanifest.xml', 'index.html', 'course/bridge.js', 'course/rules.json', ...schemaFiles(format)]) {
      assert.ok(listed.includes(file), `${file} in the zip`);
    }
    assert.ok(!listed.some((file) => /\.(br|gz)$/.test(file)), 'no precompressed copies');
    const index = readFileSync(join(folder, 'index.html'), 'utf8');
    assert.match(index, new RegExp(`<meta name="lease-lab-package" content="${format}">`));
  });
}

/** Whether the schemas refuse `format`'s manifest changed by `plant`. */
function refuses(format, plant) {
  const dir = mkdtempSync(join(tmpdir(), 'lease-lab-manifest-'));
  const file = join(dir, 'imsmanifest.xml');
  const good = manifest(format, 'Lease Lab', ['index.html']);
  const bad = plant(good);
  assert.notEqual(bad, good, 'the mistake was planted');
  writeFileSync(file, bad);
  const schemas = join(PACKAGES, format);
  try {
    validate(format, file, schemas);
    return false;
  } catch {
    return true;
  }
}

test('planted mistakes in a manifest are refused', () => {
  assert.ok(refuses('scorm12', (m) => m.replace('adlcp:scormtype="sco"', 'adlcp:scormtype="lesson"')));
  assert.ok(refuses('scorm12', (m) => m.replace(/<organizations default="[^"]*">/, '<organizations>').replace('</organizations>', '</organizations><organizations/>')));
  assert.ok(refuses('scorm2004', (m) => m.replace('<item identifier=', '<imsss:sequencing/><item identifier=')));
  assert.ok(refuses('scorm2004', (m) => m.replace('identifierref="lease-lab-sco">', 'identifierref="lease-lab-sco"><adlcp:completionThreshold minProgressMeasure="7"/>')));
  assert.ok(refuses('scorm2004', (m) => m.replace(/<resource [^>]*>/, '<resource type="webcontent" href="index.html">')));
});
