// For the specs of the canonical-form fast paths: `count` variants of `text`, each with one character inserted,
// removed or replaced at a pseudo-random place (a fixed sequence from `seed`, so a failing run is reproducible).
export interface Mutation {
  /** `<kind>@<offset>:<character>` (kind 0 insert, 1 replace, 2 remove), to name a failing case. */
  label: string;
  text: string;
}

export function oneCharacterMutations(text: string, characters: readonly string[], count: number, seed: number): Mutation[] {
  let state = seed;
  const next = (n: number) => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state % n;
  };
  return Array.from({ length: count }, () => {
    const at = next(text.length);
    const character = characters[next(characters.length)] as string;
    const kind = next(3);
    return {
      label: `${kind}@${at}:${JSON.stringify(character)}`,
      text: text.slice(0, at) + (kind === 2 ? '' : character) + text.slice(kind === 0 ? at : at + 1),
    };
  });
}
