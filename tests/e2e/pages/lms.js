// Plays the LMS for tests/e2e/course.spec.ts: a SCORM 1.2 or 2004 runtime from scorm-again
// (served from node_modules under /__scorm-again/), or a broken one, as the window's API;
// then reads the package's imsmanifest.xml and launches its SCO in a frame, as an LMS does.
// Query: format=scorm12|scorm2004, package=<folder under /__package/>, api=scorm-again|
// throwing|failing|garbage|too-long|none, prior=<the data model to resume, as JSON>,
// fragment=<added to the launch address>.
import { Scorm12API } from '/__scorm-again/scorm12.js';
import { Scorm2004API } from '/__scorm-again/scorm2004.js';

const query = new URLSearchParams(location.search);
const format = query.get('format');
const kind = query.get('api') ?? 'scorm-again';
const prior = JSON.parse(query.get('prior') ?? 'null');
const name = format === 'scorm12' ? 'API' : 'API_1484_11';

function runtime() {
  const api = format === 'scorm12' ? new Scorm12API({ logLevel: 5 }) : new Scorm2004API({ logLevel: 5 });
  if (prior) api.loadFromJSON(prior, '');
  return api;
}

/** A runtime that misbehaves in one way, around a real one where it answers at all. */
function broken(real) {
  const calls = (answer) =>
    new Proxy(real, { get: (target, method) => (...args) => answer(String(method), args, target) });
  switch (kind) {
    case 'throwing':
      return calls(() => {
        throw new Error('the LMS is unavailable');
      });
    case 'failing':
      return calls((method, args, target) => (/SetValue$/.test(method) ? 'false' : target[method](...args)));
    case 'garbage':
      return calls((method, args, target) => (/GetValue$/.test(method) ? { not: 'a string' } : target[method](...args)));
    case 'too-long':
      return calls((method, args, target) =>
        /GetValue$/.test(method) && args[0] === 'cmi.suspend_data' ? 'x'.repeat(70_000) : target[method](...args));
    default:
      return real;
  }
}

const real = runtime();
let commits = 0;
real.on(format === 'scorm12' ? 'LMSCommit' : 'Commit', () => commits++);
if (kind !== 'none') window[name] = kind === 'scorm-again' ? real : broken(real);

const folder = `/__package/${query.get('package')}/`;
const manifest = new DOMParser().parseFromString(
  await (await fetch(`${folder}imsmanifest.xml`)).text(),
  'application/xml',
);
const resource = [...manifest.getElementsByTagName('resource')].find(
  (element) => (element.getAttribute('adlcp:scormtype') ?? element.getAttribute('adlcp:scormType')) === 'sco',
);
const frame = document.createElement('iframe');
frame.id = 'course';
frame.title = 'Lease Lab course';
frame.src = `${folder}${resource.getAttribute('href')}${query.get('fragment') ?? ''}`;
document.getElementById('player').append(frame);

// For the test: the runtime's data model, and ending the launch as an LMS does (the frame
// goes, so the content sees pagehide).
window.lms = {
  cmi: () => JSON.parse(JSON.stringify(real.cmi)),
  terminated: () => real.isTerminated(),
  commits: () => commits,
  close: () => frame.remove(),
};
