/**
 * How a seat is named to a person, the same in the page and in the command line: seats are counted from 1
 * ("player 2" is seat 1), with the player's name when it gave one. Names come from the relay already checked
 * printable (the protocol's `checkName`).
 */

/** Seat `seat` (0-based) as a person reads it: `player 2`, or `player 2 (Grace)` when `names` gives one. */
export function seatWords(seat: number, names: readonly (string | null)[] = []): string {
  const name = names[seat];
  return name ? `player ${seat + 1} (${name})` : `player ${seat + 1}`;
}

/** Every taken seat in one line: `player 1 (Ada, you), player 2, player 3 (Linus)`; free seats say so. */
export function seatsLine(names: readonly (string | null)[], me: number): string {
  return names
    .map((n, k) => {
      if (n === null) return `player ${k + 1}: free`;
      const what = [n, k === me ? 'you' : ''].filter(Boolean).join(', ');
      return what ? `player ${k + 1} (${what})` : `player ${k + 1}`;
    })
    .join(', ');
}
