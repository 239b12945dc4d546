/**
 * The code a match worker runs: plain CommonJS evaluated by the worker (`eval: true`), so it works
 * the same from source, tests and the bundle. It runs the three things that apply a pattern the
 * suite chose to data the agent chose — a regular expression, a JSONPath query with `match()` or
 * `search()` filters, a JSON Schema with `pattern` keywords — any of which can backtrack for
 * minutes; the pool terminates the worker at the time limit. Modules are loaded by the absolute
 * paths the main thread resolved (`workerData.modules`), so no resolution depends on the cwd.
 */
export const MATCH_WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const regexes = new Map();
const validators = new Map();
let jsonpath;
let ajvs;

function bounded(cache, key, make) {
  let value = cache.get(key);
  if (value === undefined) {
    value = make();
    if (cache.size > 256) cache.clear();
    cache.set(key, value);
  }
  return value;
}

function execRegex(job) {
  const re = bounded(regexes, job.flags + '/' + job.source, () => new RegExp(job.source, job.flags));
  const m = re.exec(job.text);
  if (m === null) return { matched: false };
  const groups = {};
  for (const [k, v] of Object.entries(m.groups ?? {})) if (typeof v === 'string') groups[k] = v;
  m.forEach((v, i) => { if (i > 0 && typeof v === 'string') groups[String(i)] = v; });
  return { matched: true, value: m[0], index: m.index, groups };
}

// Loading a matcher's module is not the match: it happens before the worker says 'started'.
function load(kind) {
  if (kind === 'jsonpath' && jsonpath === undefined) {
    if (workerData.modules.jsonpath === undefined) throw new Error(workerData.missing.jsonpath);
    jsonpath = require(workerData.modules.jsonpath);
  }
  if (kind === 'json_schema' && ajvs === undefined) {
    if (workerData.modules.ajv === undefined) throw new Error(workerData.missing.ajv);
    const Ajv = require(workerData.modules.ajv);
    const Ajv2020 = require(workerData.modules.ajv2020);
    ajvs = { Ajv: Ajv.default ?? Ajv, Ajv2020: Ajv2020.default ?? Ajv2020 };
  }
}

function queryJsonPath(job) {
  return jsonpath.query(job.data, job.path);
}

function validateSchema(job) {
  const validate = bounded(validators, job.key, () => {
    const Engine = job.draft2020 ? ajvs.Ajv2020 : ajvs.Ajv;
    return new Engine({ allErrors: true, strict: false }).compile(job.schema);
  });
  const valid = validate(job.data) === true;
  return { valid, errors: valid ? [] : (validate.errors ?? []).map((e) => ({ instancePath: e.instancePath, message: e.message })) };
}

parentPort.on('message', (job) => {
  try {
    load(job.kind);
    parentPort.postMessage({ started: true });
    const value = job.kind === 'regex' ? execRegex(job) : job.kind === 'jsonpath' ? queryJsonPath(job) : validateSchema(job);
    parentPort.postMessage({ ok: true, value });
  } catch (error) {
    parentPort.postMessage({ ok: false, message: String((error && error.message) || error) });
  }
});
`;
