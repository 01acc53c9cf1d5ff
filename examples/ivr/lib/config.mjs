// The app's settings, all from the environment. ARI_* say where the server is and which
// Stasis application to serve; IVR_* tune the menu. A bad value stops the app at start with a
// message naming the variable, before it connects anywhere.

const DEFAULTS = {
  IVR_MENU_TIMEOUT_SECONDS: '5',
  IVR_MAX_TRIES: '3',
  IVR_AGENT_ENDPOINT: 'PJSIP/bob',
  IVR_AGENT_TIMEOUT_SECONDS: '30',
  IVR_MESSAGE_MAX_SECONDS: '60',
  IVR_MESSAGE_MAX_SILENCE_SECONDS: '3',
};

/** Reads a whole number within [min, max] from `env[name]`, or throws naming it. */
function wholeNumber(env, name, min, max) {
  const text = env[name] ?? DEFAULTS[name];
  const n = Number(text);
  if (!/^\d{1,6}$/.test(text) || n < min || n > max) throw new Error(`${name} must be a whole number from ${min} to ${max} (got '${text}')`);
  return n;
}

/** Reads a required, non-empty variable, or throws naming it. */
function required(env, name) {
  const value = env[name];
  if (!value) throw new Error(`${name} is not set`);
  return value;
}

/** The configuration of one run of the app, read from `env` (process.env by default). */
export function readConfig(env = process.env) {
  const agent = env.IVR_AGENT_ENDPOINT ?? DEFAULTS.IVR_AGENT_ENDPOINT;
  if (!/^[A-Za-z]+\/\S+$/.test(agent)) throw new Error(`IVR_AGENT_ENDPOINT must be an endpoint such as PJSIP/bob (got '${agent}')`);
  const url = required(env, 'ARI_URL').replace(/\/+$/, '');
  if (!/^https?:\/\//.test(url)) throw new Error(`ARI_URL must be an http:// or https:// address (got '${url}')`);
  return {
    url: url.replace(/\/ari$/, ''), // ari-client adds /ari itself
    username: required(env, 'ARI_USERNAME'),
    password: required(env, 'ARI_PASSWORD'),
    app: required(env, 'ARI_APP'),
    menuTimeoutSeconds: wholeNumber(env, 'IVR_MENU_TIMEOUT_SECONDS', 1, 600),
    maxTries: wholeNumber(env, 'IVR_MAX_TRIES', 1, 10),
    agentEndpoint: agent,
    agentTimeoutSeconds: wholeNumber(env, 'IVR_AGENT_TIMEOUT_SECONDS', 1, 600),
    messageMaxSeconds: wholeNumber(env, 'IVR_MESSAGE_MAX_SECONDS', 1, 3600),
    messageMaxSilenceSeconds: wholeNumber(env, 'IVR_MESSAGE_MAX_SILENCE_SECONDS', 1, 60),
  };
}
