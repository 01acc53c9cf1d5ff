import { readFileSync, statSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';

/** A file that cannot be read or is not YAML/JSON; the message starts with the file's name. */
export class YamlFileError extends Error {}

/**
 * Reads and parses a YAML (or JSON: YAML 1.2 reads it too) file of at most `maxBytes`. Aliases
 * are capped, so a small file cannot expand without bound. `what` names the kind of file in
 * the size message ("a scenario file").
 */
export function readYamlFile(file: string, maxBytes: number, what: string): unknown {
  let text: string;
  try {
    const size = statSync(file).size;
    if (size > maxBytes) throw new YamlFileError(`${file}: ${size} bytes; ${what} may have at most ${maxBytes}`);
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if (err instanceof YamlFileError) throw err;
    throw new YamlFileError(`${file}: cannot be read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
  try {
    return parseYaml(text, { maxAliasCount: 100, uniqueKeys: true, prettyErrors: true });
  } catch (err) {
    throw new YamlFileError(`${file}: not valid YAML or JSON: ${(err as Error).message.split('\n')[0]}`);
  }
}
