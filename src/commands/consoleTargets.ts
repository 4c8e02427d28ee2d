// The console's targets: the embedded demo, a saved profile (secret from the keychain), or credentials
// given for this run only (memory). Builds the client for each and checks new credentials against the
// service before anything is saved.
import type { BrokerApi, ClientConfig, ExchangeInfo } from '../api/contract';
import { BrokerError, firstLineOf } from '../api/errors';
import { OPERATION_LABELS, createBrokerApi } from '../api/operations';
import { cleartextWarning, proxyInOrder } from '../api/proxy';
import { type ReadOnlySource, readOnlyApi, readOnlyReason } from '../api/readOnly';
import { createAuditRecorder, type AuditRecorder, type AuditTarget } from '../config/auditTrail';
import { type Learned, learnedFor } from '../config/learned';
import { apiKeyProblem } from '../api/headers';
import { DEFAULT_API_KEY_HEADER, DEFAULT_RECV_WINDOW, POST_SIGNATURES, type PostSignature, parsePostSignature } from '../api/signing';
import { type DiscoveredSubAccounts, memoryDiscoveredSubAccounts, openDiscoveredSubAccounts } from '../config/discoveredSubAccounts';
import { memoryRecentSubAccounts, openRecentSubAccounts, type RecentSubAccounts } from '../config/recentSubAccounts';
import { CHECK_TIMEOUT_MS, checkCredentials } from '../credentials/checkCredentials';
import { ENV, checkBaseUrl } from '../credentials/fromEnvironment';
import { KeychainError, folderKeychain, keychainAccount, openKeychain, type Keychain } from '../credentials/keychain';
import {
  PROFILE_COLORS,
  ProfileExistsError,
  SecretNotStoredError,
  checkApiKeyHeader,
  isProfileColor,
  checkNewProfileName,
  checkProfileName,
  findProfile,
  loadProfiles,
  saveProfile,
  secretProblem,
  type Profile,
  clientConfigOf,
} from '../credentials/profiles';
import type { ResolvedTarget } from '../credentials/resolve';
import { fileExporter } from '../export/fileExporter';
import type { TransferExporter } from '../export/types';
import { DEMO_SEED } from './demoRun';
import { DEMO_LATENCY_MS } from '../sandbox/demoClock';
import { demoSubAccountNames } from '../sandbox/seedAccounts';
import type { RunningSandbox } from '../sandbox/types';
import { shellWord } from '../terminal/shell';
import { keyListCommand } from '../api/serviceCodes';
import { createExchangeLog, type ExchangeLog } from '../ui/exchangeLog';
import type { CheckOutcome, ConsoleTarget, CredentialsInput, NewProfileInput, ProfileSummary, StartupProblem, TargetSwitcher } from '../ui/targets';

interface TargetOptions {
  folder: string;
  exportFolder: string;
  recvWindow?: number;
  timeoutMs?: number;
  /** Extra observer of every exchange (the --log-file), told which API key made it. */
  onExchange?: (exchange: ExchangeInfo, apiKey: string) => void;
  keychain?: () => Promise<Keychain>;
  /**
   * Pins the demo's clock (`--demo-clock`, `BROKER_DEMO_CLOCK`; src/sandbox/demoClock.ts): the demo's data,
   * its "now" (relative spans, export file names), created keys, and the latency its status bar shows
   * (DEMO_LATENCY_MS) stay the same from take to take. Profiles and session credentials are not affected.
   */
  demoClockMs?: number;
  /** The whole run is read-only (--read-only, BROKER_READ_ONLY): every target, the demo included. */
  readOnly?: ReadOnlySource;
  /** Resolves once the console's first frame is drawn: the demo's sandbox starts then (at once without it). */
  drawn?: Promise<void>;
  /** --proxy: before a profile's proxy and the environment's. */
  proxy?: string;
  /** Where HTTPS_PROXY, HTTP_PROXY and NO_PROXY are read (the demo's sandbox is never reached through a proxy). */
  env?: Readonly<Record<string, string | undefined>>;
}

/** A client made once its service is ready: each call waits for it (the demo's sandbox starts after the first frame). */
function apiWhenReady(ready: Promise<BrokerApi>): BrokerApi {
  let api: BrokerApi | undefined;
  ready.then((made) => (api = made)).catch(() => undefined);
  return {
    listSubAccountKeys: async (...args) => (await ready).listSubAccountKeys(...args),
    createSubAccountKey: async (...args) => (await ready).createSubAccountKey(...args),
    listUniversalTransfers: async (...args) => (await ready).listUniversalTransfers(...args),
    clockOffsetMs: () => api?.clockOffsetMs() ?? 0,
    // Until the service is ready nothing has been sent, and nothing is held back.
    reportCutShort: () => api?.reportCutShort(),
    heldBack: (operation) => api?.heldBack(operation),
    close: async () => {
      await (await ready.catch(() => undefined))?.close();
    },
  };
}

export interface ConsoleTargets extends TargetSwitcher {
  openResolved(target: ResolvedTarget): Promise<void>;
  setStartupProblem(problem: StartupProblem | undefined): void;
  close(): Promise<void>;
}

/** How long closing waits for the writes under way (a stuck disk must not keep the console from exiting). */
const WRITES_GRACE_MS = 2000;

export function createConsoleTargets(options: TargetOptions): ConsoleTargets {
  const openRaw = options.keychain ?? openKeychain;
  const keychain = async (): Promise<Keychain> => folderKeychain(await openRaw(), options.folder);
  // The screens start these writes and do not wait (recent and discovered names, audit lines); closing does,
  // so a quit right after neither loses them nor leaves an atomic write's temporary file behind.
  const writes = new Set<Promise<void>>();
  const tracked =
    <A extends unknown[], R>(write: (...args: A) => Promise<R>) =>
    (...args: A): Promise<R> => {
      const started = write(...args);
      const done = started.then(
        () => undefined,
        () => undefined,
      );
      writes.add(done);
      void done.then(() => writes.delete(done));
      return started;
    };
  const writesDone = async (): Promise<void> => {
    let timer: NodeJS.Timeout | undefined;
    let graceOver = false;
    const grace = new Promise<void>((resolve) => (timer = setTimeout(resolve, WRITES_GRACE_MS))).then(() => void (graceOver = true));
    // A write may start another once it is done (the line ahead of a create, then its close): until none is left.
    while (writes.size > 0 && !graceOver) {
      await Promise.race([Promise.all(writes), grace]);
      await new Promise((resolve) => setImmediate(resolve));
    }
    clearTimeout(timer);
  };
  // An export cancelled by the quit removes its file before the process ends.
  const trackedExporter = (exporter: TransferExporter): TransferExporter => ({ run: tracked(exporter.run.bind(exporter)) });
  const trackedAudit = (recorder: AuditRecorder): AuditRecorder =>
    Object.assign(tracked(recorder), {
      ahead: async (request: Parameters<AuditRecorder['ahead']>[0]) => {
        const after = await tracked(recorder.ahead)(request);
        return after && Object.assign(tracked(after), { attempt: after.attempt });
      },
      again: tracked(recorder.again),
      closeUnknown: tracked(recorder.closeUnknown),
      recentFor: recorder.recentFor,
      onHost: recorder.onHost,
      problem: recorder.problem,
      subscribe: recorder.subscribe,
    });
  const listeners = new Set<() => void>();
  let current: ConsoleTarget | undefined;
  /** Targets of this run that are no saved profile (environment credentials, credentials for this run), by name. */
  const inMemory = new Map<string, { baseUrl: string; open: () => Promise<void> }>();
  // The demo's sandbox, started at its first use. The first frame needs only the demo's names: node:http, the
  // seeded state and the socket wait until that frame is drawn (options.drawn).
  let sandbox: Promise<RunningSandbox> | undefined;
  let closed = false;
  let closing = (): void => undefined;
  const whenClosed = new Promise<void>((resolve) => (closing = resolve));
  const demoSandbox = (): Promise<RunningSandbox> => {
    const pinned = options.demoClockMs;
    sandbox ??= import('../sandbox/server').then(({ startSandbox }) =>
      startSandbox({ seed: DEMO_SEED, ...(pinned !== undefined ? { demoClockMs: pinned } : {}) }),
    );
    return sandbox;
  };
  const closeSandbox = async (): Promise<void> => {
    const running = sandbox;
    sandbox = undefined;
    await running?.then((s) => s.close()).catch(() => undefined);
  };
  let problem: StartupProblem | undefined;
  let nextId = 1;

  // A live target starts from what the folder remembers of its base URL and keeps what it learns, as the
  // commands do (config/learned.ts): the clock offset it ended with is kept as it is let go.
  const learnedOf = new Map<BrokerApi, Learned>();
  const release = async (api: BrokerApi): Promise<void> => {
    const learned = learnedOf.get(api);
    learnedOf.delete(api);
    await learned?.keep(api.clockOffsetMs());
    await api.close().catch(() => undefined);
  };

  const recentFor = async (key: string): Promise<RecentSubAccounts> => {
    let recent: RecentSubAccounts;
    try {
      recent = await openRecentSubAccounts(options.folder, key);
    } catch {
      return memoryRecentSubAccounts();
    }
    return { list: recent.list, remember: tracked(recent.remember), forget: tracked(recent.forget) };
  };

  const discoveredFor = async (key: string): Promise<DiscoveredSubAccounts> => {
    let discovered: DiscoveredSubAccounts;
    try {
      discovered = await openDiscoveredSubAccounts(options.folder, key);
    } catch {
      return memoryDiscoveredSubAccounts();
    }
    return { list: discovered.list, scannedAt: discovered.scannedAt, note: tracked(discovered.note) };
  };

  /** The config with its proxy (--proxy, the profile's, the environment's), or why that proxy cannot be used. */
  const withProxy = (config: ClientConfig, saved?: Profile): { config: ClientConfig; problem?: string } => {
    const chosen = proxyInOrder(config.baseUrl, { flag: options.proxy, profile: saved }, options.env ?? {});
    if (chosen.problem !== undefined) return { config, problem: chosen.problem };
    return { config: chosen.proxy ? { ...config, proxy: chosen.proxy } : config };
  };

  const clientConfig = (base: Omit<ClientConfig, 'onExchange'>, exchanges: ExchangeLog): ClientConfig => ({
    ...base,
    ...(options.recvWindow !== undefined ? { recvWindow: options.recvWindow } : {}),
    ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
    onExchange: (exchange) => {
      exchanges.record(exchange);
      options.onExchange?.(exchange, base.apiKey);
    },
    onWaiting: (wait) => exchanges.waiting(wait),
  });

  async function switchTo(build: (exchanges: ExchangeLog) => Promise<Omit<ConsoleTarget, 'id' | 'exchanges' | 'exporter'>>): Promise<void> {
    const exchanges = createExchangeLog();
    const next = await build(exchanges);
    const previous = current;
    current = {
      ...next,
      id: nextId++,
      exchanges,
      exporter: trackedExporter(fileExporter(next.api, options.exportFolder, next.now)),
      ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
    };
    problem = undefined;
    for (const listener of listeners) listener();
    if (previous) await release(previous.api);
    if (previous?.mode === 'demo' && next.mode !== 'demo') await closeSandbox();
  }

  // A read-only run or profile: the target's client refuses to create before any socket is opened (the
  // console also hides and refuses the ways to a new key; this holds whatever screen asks).
  const guarded = (api: BrokerApi, saved?: Profile): { api: BrokerApi; readOnly?: string } => {
    const source = options.readOnly ?? (saved?.readOnly === true ? { kind: 'profile' as const, profile: saved.name } : undefined);
    if (!source) return { api };
    const reason = readOnlyReason(source);
    return { api: readOnlyApi(api, reason), readOnly: reason };
  };

  /**
   * A create through a saved profile checks first that the profile is still as it was opened: one removed or
   * changed by another terminal (retired, pointed elsewhere, made read-only) sends nothing, and says so.
   */
  const whileSaved = (api: BrokerApi, saved: Profile): BrokerApi => {
    const refuse = (why: string) =>
      new BrokerError({
        kind: 'invalid-request',
        operation: OPERATION_LABELS.createSubAccountKey,
        serviceMessage: `${why}: nothing was sent — ctrl+p opens a profile`,
      });
    return {
      listSubAccountKeys: (subAccount, callOptions) => api.listSubAccountKeys(subAccount, callOptions),
      async createSubAccountKey(request, callOptions) {
        let now: Profile | undefined;
        try {
          now = findProfile(await loadProfiles(options.folder), saved.name);
        } catch (error) {
          throw refuse(`the profile file cannot be read (${firstLineOf(error)})`);
        }
        if (now === undefined) throw refuse(`profile ${saved.name} was removed (by another terminal?)`);
        if (now.baseUrl !== saved.baseUrl || now.apiKeyHeader !== saved.apiKeyHeader || now.proxy !== saved.proxy)
          throw refuse(`profile ${saved.name} was changed (by another terminal?)`);
        if (now.readOnly === true && saved.readOnly !== true) throw refuse(`profile ${saved.name} was made read-only`);
        return api.createSubAccountKey(request, callOptions);
      },
      listUniversalTransfers: (query, callOptions) => api.listUniversalTransfers(query, callOptions),
      clockOffsetMs: () => api.clockOffsetMs(),
      reportCutShort: () => api.reportCutShort(),
      heldBack: (operation) => api.heldBack(operation),
      close: () => api.close(),
    };
  };

  /** keys list on this service with these credentials: a profile's (and its URL when another was given), the environment's, or the session's, which a shell has to be given. */
  const listCommandFor = (baseUrl: string, source: string, saved: Profile | undefined): string => {
    const url = `--base-url ${shellWord(baseUrl)}`;
    if (source === 'memory only') return `BROKER_API_KEY=… BROKER_API_SECRET=… ${keyListCommand(url)}`;
    if (saved !== undefined) return keyListCommand(`--profile ${shellWord(saved.name)}${baseUrl === saved.baseUrl ? '' : ` ${url}`}`);
    return keyListCommand(url);
  };

  const live = (given: ClientConfig, profile: string, source: string, saved?: Profile) => async (exchanges: ExchangeLog) => {
    const { config, problem: proxyProblem } = withProxy(given, saved);
    const learned = await learnedFor(options.folder, config.baseUrl, config.postSignature, (write) => tracked(() => write)());
    // A ban met by an earlier run holds this one back too: the status bar says so at once.
    const banEndsAt = learned.config.banEndsAt;
    if (banEndsAt !== undefined)
      exchanges.record({ operation: 'requests', method: 'GET', path: '', ok: false, latencyMs: 0, attempt: 1, banEndsAt, notSent: true });
    const made = createBrokerApi({ ...clientConfig(config, exchanges), ...learned.config });
    // A proxy that cannot be used is never gone around (the service may accept this key only from the proxy's address).
    const reachable = proxyProblem === undefined ? made : refusingApi(made, `${proxyProblem} — nothing was sent`);
    const client = guarded(saved !== undefined && source === 'keychain' ? whileSaved(reachable, saved) : reachable, saved);
    learnedOf.set(client.api, learned);
    const host = new URL(config.baseUrl).host;
    const cleartext = cleartextWarning(config.baseUrl);
    return {
      ...client,
      ...(cleartext ? { cleartext } : {}),
      ...(saved?.color !== undefined ? { profileColor: saved.color } : {}),
      mode: 'live' as const,
      host,
      profile,
      credentialSource: source,
      keyListCommand: listCommandFor(config.baseUrl, source, saved),
      recent: await recentFor(config.baseUrl),
      discovered: await discoveredFor(config.baseUrl),
      suggestions: [],
      audit: trackedAudit(createAuditRecorder(options.folder, { profile, host })),
    };
  };

  /** Checks credentials with the one signed request `profile add` sends too (credentials/checkCredentials.ts). */
  async function check(given: ClientConfig, saved?: Profile): Promise<CheckOutcome> {
    const { config, problem: proxyProblem } = withProxy(given, saved);
    if (proxyProblem !== undefined) return { ok: false, message: `${proxyProblem} — nothing was sent` };
    const checked = await checkCredentials(config, { timeoutMs: options.timeoutMs ?? CHECK_TIMEOUT_MS });
    return checked.ok ? checked : { ok: false, message: checked.message, ...(checked.field ? { field: checked.field } : {}) };
  }

  /** The form's credentials as `profile add` takes them: trimmed, and held to the same rules. */
  function validCredentials(input: CredentialsInput): { ok: true; url: string; apiKey: string; secretKey: string } | (CheckOutcome & { ok: false }) {
    const base = checkBaseUrl(input.baseUrl);
    if (!base.ok) return { ok: false, field: 'baseUrl', message: `base URL: ${base.reason}` };
    const apiKey = input.apiKey.trim();
    if (apiKey === '') return { ok: false, field: 'apiKey', message: 'API key: required' };
    const keyProblem = apiKeyProblem(apiKey);
    if (keyProblem !== undefined) return { ok: false, field: 'apiKey', message: keyProblem };
    const secretKey = input.secretKey.trim();
    if (secretKey === '') return { ok: false, field: 'secretKey', message: 'secret: required' };
    const secretIssue = secretProblem(secretKey);
    if (secretIssue !== undefined) return { ok: false, field: 'secretKey', message: secretIssue };
    return { ok: true, url: base.url, apiKey, secretKey };
  }

  const keychainMessage = (error: unknown): string =>
    error instanceof KeychainError ? error.problem.message : error instanceof Error ? error.message : String(error);

  return {
    current: () => current,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    startupProblem: () => problem,
    runReadOnly: () => (options.readOnly ? readOnlyReason(options.readOnly) : undefined),
    setStartupProblem(next) {
      problem = next;
    },
    async profiles(): Promise<ProfileSummary[]> {
      const config = await loadProfiles(options.folder);
      const saved = config.profiles.map((p) => ({
        name: p.name,
        baseUrl: p.baseUrl,
        isDefault: p.name === config.defaultProfile,
        ...(p.readOnly === true ? { readOnly: true } : {}),
      }));
      return [...saved, ...[...inMemory].map(([name, kept]) => ({ name, baseUrl: kept.baseUrl, isDefault: false, inMemory: true }))];
    },
    async openInMemory(name) {
      const kept = inMemory.get(name);
      if (kept === undefined) return { ok: false, message: `nothing named ${name} is kept for this run` };
      await kept.open();
      return { ok: true };
    },
    async openDemo() {
      await switchTo(async (exchanges) => {
        const pinned = options.demoClockMs;
        // Closed before the frame (a failed start): the demo's calls end, none waits for a frame never drawn.
        const ready = Promise.race([options.drawn ?? Promise.resolve(), whenClosed]).then(() => {
          if (closed) throw new Error('the console closed before the demo started');
          return demoSandbox();
        });
        ready.catch(() => undefined);
        // The trail records the demo as its target (as `--demo` commands do): its port says nothing a run later.
        const auditTarget: AuditTarget = { profile: 'demo', host: 'demo' };
        // Pinned: the status bar is told a fixed latency (the log file, if any, still gets the real one).
        const shown: ExchangeLog =
          pinned === undefined ? exchanges : { ...exchanges, record: (exchange) => exchanges.record({ ...exchange, latencyMs: DEMO_LATENCY_MS }) };
        const client = guarded(
          apiWhenReady(ready.then((s) => createBrokerApi(clientConfig({ baseUrl: s.baseUrl, apiKey: s.apiKey, secretKey: s.secretKey }, shown)))),
        );
        return {
          ...client,
          mode: 'demo',
          // Nothing shows the demo's host: its port changes each run.
          host: 'sandbox',
          // The demo's attempts are recorded too, marked profile "demo"; read back, only this run's (its sandbox and
          // keys end with it). Pinned: its entries take the pinned moment too, so two takes write the same trail.
          audit: trackedAudit(
            createAuditRecorder(options.folder, auditTarget, pinned !== undefined ? () => new Date(pinned) : undefined, { thisRunOnly: true }),
          ),
          profile: 'demo',
          credentialSource: 'sandbox',
          recent: await recentFor('demo'),
          discovered: await discoveredFor('demo'),
          suggestions: demoSubAccountNames(DEMO_SEED),
          ...(pinned !== undefined ? { now: () => pinned } : {}),
        };
      });
    },
    async openResolved(target) {
      const config: ClientConfig = { baseUrl: target.baseUrl, apiKey: target.apiKey, secretKey: target.secretKey };
      if (target.apiKeyHeader) config.apiKeyHeader = target.apiKeyHeader;
      if (target.recvWindow !== undefined) config.recvWindow = target.recvWindow;
      if (target.postSignature !== undefined) config.postSignature = target.postSignature;
      const elsewhere = target.overrides?.some((note) => note.startsWith(ENV.baseUrl)) === true;
      const open = () =>
        switchTo(live(config, target.profile?.name ?? 'environment', elsewhere ? `${target.source} · URL from ${ENV.baseUrl}` : target.source, target.profile));
      // Environment credentials are no profile: ctrl+p lists them, so a run can come back to them.
      if (target.profile === undefined) inMemory.set('environment', { baseUrl: target.baseUrl, open });
      await open();
    },
    async openProfile(name) {
      const config = await loadProfiles(options.folder);
      const profile = findProfile(config, name);
      if (!profile) return { ok: false, message: `no profile named ${name}` };
      let stored;
      try {
        stored = await (await keychain()).get(name);
      } catch (error) {
        return { ok: false, keychainFailed: true, message: keychainMessage(error) };
      }
      if (!stored)
        return {
          ok: false,
          keychainFailed: true,
          message: `the keychain has no secret for profile ${name}: add it again, or enter the credentials for this run`,
        };
      await switchTo(live(clientConfigOf(profile, stored.apiKey, stored.secretKey), name, 'keychain', profile));
      return { ok: true };
    },
    async addProfile(input: NewProfileInput) {
      const name = checkProfileName(input.name);
      if (!name.ok) return { ok: false, field: 'name', message: name.message };
      const valid = validCredentials(input);
      if (!valid.ok) return valid;
      const existing = await loadProfiles(options.folder);
      const fresh = checkNewProfileName(name.value, existing);
      if (!fresh.ok) return { ok: false, field: 'name', message: fresh.message };
      // A profile whose secret is gone from the keychain is given one again here (the welcome screen sends the
      // operator this way); one that has its secret is never replaced from the console.
      const repairing = findProfile(existing, name.value);
      if (repairing !== undefined) {
        // Only an entry the keychain's listing confirms missing: a locked keyring also reads as none.
        if (!(await secretConfirmedMissing(await keychain().catch(() => undefined), name.value, options.folder)))
          return { ok: false, field: 'name', message: new ProfileExistsError(name.value).message };
      }
      const header = checkApiKeyHeader(input.apiKeyHeader.trim() || DEFAULT_API_KEY_HEADER);
      if (!header.ok) return { ok: false, field: 'apiKeyHeader', message: `API key header: ${header.message}` };
      const postSignature = typedPostSignature(input);
      if (postSignature === undefined) return { ok: false, field: 'postSignature', message: `POST signing: must be ${POST_SIGNATURES.join(', ')}` };
      const color = input.color?.trim().toLowerCase() ?? '';
      if (color !== '' && !isProfileColor(color)) return { ok: false, field: 'color', message: `colour: blank, or one of ${PROFILE_COLORS.join(', ')}` };
      const profile: Profile = {
        name: name.value,
        baseUrl: valid.url,
        apiKeyHeader: header.value,
        recvWindow: options.recvWindow ?? repairing?.recvWindow ?? DEFAULT_RECV_WINDOW,
        postSignature,
        // A repair keeps what the form does not ask (read-only, the proxy), and the colour unless one is typed.
        ...(repairing?.readOnly === true ? { readOnly: true } : {}),
        ...(repairing?.proxy !== undefined ? { proxy: repairing.proxy } : {}),
        ...(isProfileColor(color) ? { color } : repairing?.color !== undefined ? { color: repairing.color } : {}),
      };
      // Checked as it will be used: through the profile's proxy when a repair kept one.
      const checked = await check(clientConfigOf(profile, valid.apiKey, valid.secretKey), profile);
      if (!checked.ok) return checked;
      try {
        // The secret first, under the settings' lock: if the keychain refuses, nothing is left behind.
        const store = async (): Promise<void> => (await keychain()).set(profile.name, { apiKey: valid.apiKey, secretKey: valid.secretKey });
        await saveProfile(options.folder, profile, { secret: { store }, onlyNew: repairing === undefined });
      } catch (error) {
        if (error instanceof SecretNotStoredError) return { ok: false, keychainFailed: true, message: keychainMessage(error.cause) };
        if (error instanceof ProfileExistsError) return { ok: false, field: 'name', message: `${error.message} (added while this one was checked)` };
        throw error;
      }
      await switchTo(live(clientConfigOf(profile, valid.apiKey, valid.secretKey), profile.name, 'keychain', profile));
      return checked;
    },
    async useForSession(input, profileName) {
      const valid = validCredentials(input);
      if (!valid.ok) return valid;
      const saved = profileName ? findProfile(await loadProfiles(options.folder), profileName) : undefined;
      // The add-profile form's own choice, when the keychain refused the profile and its credentials serve until exit.
      const postSignature = typedPostSignature(input) ?? 'auto';
      const config = saved
        ? clientConfigOf({ ...saved, baseUrl: valid.url }, valid.apiKey, valid.secretKey)
        : { baseUrl: valid.url, apiKey: valid.apiKey, secretKey: valid.secretKey, postSignature };
      const checked = await check(config, saved);
      if (!checked.ok) return checked;
      const label = profileName ?? 'session';
      const open = () => switchTo(live(config, label, 'memory only', saved));
      // Kept in memory for this run: ctrl+p lists it, so switching away and back needs no second typing.
      inMemory.set(label, { baseUrl: config.baseUrl, open });
      await open();
      return checked;
    },
    async close() {
      closed = true;
      closing();
      if (current) await release(current.api);
      await closeSandbox();
      await writesDone();
    },
  };
}

/** The form's POST signing as typed: blank is auto; undefined for a word it cannot mean. */
function typedPostSignature(input: CredentialsInput): PostSignature | undefined {
  return input.postSignature?.trim() ? parsePostSignature(input.postSignature) : 'auto';
}

/** A client whose every call is refused with this line before anything is sent. */
function refusingApi(api: BrokerApi, line: string): BrokerApi {
  const refuse = (operation: string) => Promise.reject(new BrokerError({ kind: 'invalid-request', operation, serviceMessage: line }));
  return {
    listSubAccountKeys: () => refuse('list keys'),
    createSubAccountKey: () => refuse('create key'),
    listUniversalTransfers: () => refuse('list transfers'),
    clockOffsetMs: () => api.clockOffsetMs(),
    reportCutShort: () => api.reportCutShort(),
    heldBack: (operation) => api.heldBack(operation),
    close: () => api.close(),
  };
}

/** Whether the keychain can list its entries and none is this profile's (its folder's, or an old folderless one). */
async function secretConfirmedMissing(keychain: Keychain | undefined, profile: string, folder: string): Promise<boolean> {
  const all = await keychain?.accounts?.().catch(() => undefined);
  if (all === undefined) return false;
  return !all.includes(keychainAccount(profile, folder)) && !all.includes(profile);
}
