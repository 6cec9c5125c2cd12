/**
 * The code blocks of a Markdown page (README.md, docs/guide.md) as a user meets them, and how to run them.
 *
 * The conventions a page follows (each marker is an HTML comment on the line right before a fence, so it is
 * invisible on the rendered page):
 *
 * - A ```js or ```mjs block is a program: it is saved as a file and run with `node FILE` in the page's
 *   folder, and must exit 0 with nothing on stderr. Blocks that are not meant to run (a shell session, an
 *   output, a fragment, TypeScript) take another fence language: ```sh, ```text, ```ts, ```json.
 * - `<!-- file: NAME -->` names the file a block is saved as (a program, or a file a program reads), so a
 *   program can import another (`import guards from './guards.mjs'`). Every file of the page is written
 *   before anything runs. An unnamed program is saved as `snippet-N.mjs` (N counts the page's programs).
 * - `<!-- run -->` on a ```sh block: each of its lines is a `npx retrosim ...` command (or a `#` comment),
 *   run in the page's folder, in page order with the programs; each must exit 0 with nothing on stderr.
 * - `<!-- output -->` on a ```text block: exactly what the program or command block just before it prints
 *   on stdout.
 *
 * Steps run in page order, so a command can read the replay an earlier program wrote.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { expect } from 'vitest';

/** A fenced code block and the marker before it. */
export interface Block {
  lang: string;
  marker: 'file' | 'run' | 'output' | null;
  /** The `<!-- file: NAME -->` name. */
  file?: string;
  text: string;
  /** 1-based line of the opening fence. */
  line: number;
}

// A fence opens and closes at the start of a line; the marker, if any, is the line right before it.
const BLOCK = /(?<=^|\n)(?:<!-- (file: ([^\s]+)|run|output) -->\n)?```([a-z]*)\n((?:[^\n]*\n)*?)```(?=\n|$)/g;

/** Every fenced block of a page, in order. The text keeps its final newline (a file as saved). */
export function parseBlocks(markdown: string): Block[] {
  return [...markdown.matchAll(BLOCK)].map((m) => {
    const fence = m.index! + (m[1] ? m[0].indexOf('```') : 0);
    // A comment right before a fence that is none of the markers is a typo that would skip a check.
    const before = markdown.slice(0, m.index!).split('\n').at(-2) ?? '';
    if (!m[1] && before.startsWith('<!--')) throw new Error(`line ${markdown.slice(0, fence).split('\n').length}: unknown marker ${before} (file: NAME, run, output)`);
    const marker = m[1] === undefined ? null : m[2] !== undefined ? 'file' : (m[1] as 'run' | 'output');
    return { lang: m[3]!, marker, ...(m[2] !== undefined ? { file: m[2] } : {}), text: m[4]!, line: markdown.slice(0, fence).split('\n').length };
  });
}

/** A program to run or a command line, with what it must print (when the page says). */
export type Step = { kind: 'program'; file: string; line: number; output?: string } | { kind: 'command'; commands: string[]; line: number; output?: string };

/** A page's files and its steps in order; throws on a block that breaks the conventions above. */
export function pageSteps(markdown: string, page: string): { files: { name: string; text: string }[]; steps: Step[] } {
  const files: { name: string; text: string }[] = [];
  const steps: Step[] = [];
  let programs = 0;
  for (const b of parseBlocks(markdown)) {
    const where = `${page}:${b.line}`;
    const program = b.lang === 'js' || b.lang === 'mjs';
    if (b.marker === 'output') {
      const last = steps.at(-1);
      if (b.lang !== 'text' || !last || last.output !== undefined) throw new Error(`${where}: an output block is a \`\`\`text block right after a program or a run block`);
      last.output = b.text;
      continue;
    }
    if (b.marker === 'run') {
      if (b.lang !== 'sh') throw new Error(`${where}: a run block is a \`\`\`sh block`);
      const commands = b.text.split('\n').filter((l) => l.trim() !== '' && !l.startsWith('#'));
      for (const c of commands) if (!/^npx retrosim [^'"`$|&;<>\\]+$/.test(c)) throw new Error(`${where}: a run block holds only plain \`npx retrosim ...\` commands, not ${JSON.stringify(c)}`);
      steps.push({ kind: 'command', commands, line: b.line });
      continue;
    }
    if (b.marker === 'file') {
      if (files.some((f) => f.name === b.file)) throw new Error(`${where}: a second block saved as ${b.file}`);
      files.push({ name: b.file!, text: b.text });
    }
    if (program) {
      programs++;
      const name = b.file ?? `snippet-${programs}.mjs`;
      if (!b.file) files.push({ name, text: b.text });
      steps.push({ kind: 'program', file: name, line: b.line });
    }
  }
  return { files, steps };
}

/** A step's name in messages: the program's file, or the command block's commands. */
export function stepName(s: Step): string {
  return s.kind === 'program' ? s.file : s.commands.join('\n');
}

/** What a process did. */
export interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

/** How a page's steps run: node on a program file, and the CLI (the words after `npx retrosim`), in `cwd`. */
export interface Runner {
  node(file: string, cwd: string): Ran;
  retrosim(args: string[], cwd: string): Ran;
}

/** A step's result: the processes it ran, their stdout joined, and whether every one exited 0 with no stderr. */
export interface StepResult {
  step: Step;
  ok: boolean;
  stdout: string;
  report: string;
}

/** Writes a page's files into `dir` and runs its steps in order. */
export function runPage(markdown: string, page: string, dir: string, runner: Runner): StepResult[] {
  const { files, steps } = pageSteps(markdown, page);
  for (const f of files) {
    mkdirSync(dirname(join(dir, f.name)), { recursive: true });
    writeFileSync(join(dir, f.name), f.text);
  }
  return steps.map((step) => {
    const runs: { what: string; r: Ran }[] =
      step.kind === 'program' ? [{ what: `node ${step.file}`, r: runner.node(step.file, dir) }] : step.commands.map((c) => ({ what: c, r: runner.retrosim(c.slice('npx retrosim '.length).split(/\s+/), dir) }));
    const ok = runs.every(({ r }) => r.code === 0 && r.stderr === '');
    const report = runs.map(({ what, r }) => `${page}:${step.line} ${what}: exit ${r.code}${r.stderr ? `\n${r.stderr}` : ''}`).join('\n');
    return { step, ok, stdout: runs.map(({ r }) => r.stdout).join(''), report };
  });
}

/** A Runner of `node` itself, with a timeout; `cli` runs the retrosim CLI. */
export function spawnRunner(cli: (args: string[], cwd: string) => Ran, timeout: number): Runner {
  return {
    node(file, cwd) {
      const r = spawnSync(process.execPath, [file], { cwd, encoding: 'utf8', timeout });
      return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
    },
    retrosim: cli,
  };
}

/** Checks a page's results: every step works and prints what the page shows. */
export function expectPageRuns(results: StepResult[]): void {
  for (const r of results) {
    const name = stepName(r.step);
    expect(r.ok, r.report).toBe(true);
    if (r.step.output !== undefined) expect(r.stdout, `the output the page shows for ${name}`).toBe(r.step.output);
  }
}
