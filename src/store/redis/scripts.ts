import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Redis } from 'ioredis';
import { luaKeyConstants } from './keys.js';

/**
 * The store's Lua scripts: one file per script in lua/, named `<name>-<numkeys>.lua`, each with a
 * header listing KEYS, ARGV and the reply. A line `--- @include <file>` pastes a shared chunk
 * (lua/<file>.lua) in at load time, as BullMQ's loader does. ioredis `defineCommand` sends them
 * by EVALSHA and falls back to EVAL once after a server restart (NOSCRIPT).
 */

// Next to this module: src/store/redis/lua in the sources, dist/store/redis/lua once built (the build
// copies the scripts, scripts/copy-assets.mjs).
const LUA_DIR = new URL('./lua/', import.meta.url);

export const SCRIPT_NAMES = [
  'index',
  'commit',
  'read',
  'records',
  'query',
  'members',
  'clusters',
  'open',
] as const;
export type ScriptName = (typeof SCRIPT_NAMES)[number];

type Arg = string | Buffer | number;

/** The commands defineCommand adds (the `Buffer` variants reply with Buffers, for binary records). */
export interface ScriptCommands {
  doppelIndex(...args: Arg[]): Promise<unknown>;
  doppelIndexBuffer(...args: Arg[]): Promise<unknown>;
  doppelCommit(...args: Arg[]): Promise<unknown>;
  doppelRead(...args: Arg[]): Promise<unknown>;
  doppelRecordsBuffer(...args: Arg[]): Promise<unknown>;
  doppelQuery(...args: Arg[]): Promise<unknown>;
  doppelQueryBuffer(...args: Arg[]): Promise<unknown>;
  doppelMembers(...args: Arg[]): Promise<unknown>;
  doppelClusters(...args: Arg[]): Promise<unknown>;
  doppelOpen(...args: Arg[]): Promise<unknown>;
}

/**
 * A script file of `dir` (this module's lua/ by default; the cluster store's lua/ for its own
 * scripts) with its includes pasted in: the chunks are always this module's lua/<name>.lua.
 */
export function loadScript(file: string, dir: URL = LUA_DIR): string {
  const text = readFileSync(new URL(file, dir), 'utf8');
  return text.replace(/^--- @include (\w+)\s*$/gm, (_, name: string) => loadScript(`${name}.lua`));
}

/** A script as sent: the key name constants of keys.ts, then lua/<name>-1.lua with its includes. */
export function scriptText(name: ScriptName): string {
  return luaKeyConstants() + loadScript(`${name}-1.lua`);
}

function commandName(name: ScriptName): string {
  return `doppel${name[0]?.toUpperCase()}${name.slice(1)}`;
}

export function defineScripts(redis: Redis): ScriptCommands {
  for (const name of SCRIPT_NAMES) {
    const lua = scriptText(name);
    redis.defineCommand(commandName(name), { numberOfKeys: 1, lua });
  }
  return redis as unknown as ScriptCommands;
}

/** A script's source and SHA-1, for the calls store.ts encodes itself (resp.ts). */
export interface ScriptSource {
  lua: string;
  sha: string;
}

export function scriptSource(name: ScriptName): ScriptSource {
  return sourceOf(scriptText(name));
}

export function sourceOf(lua: string): ScriptSource {
  return { lua, sha: createHash('sha1').update(lua).digest('hex') };
}
