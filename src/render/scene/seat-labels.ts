/**
 * What the map writes over each player of a room, per viewer: "you" (with the viewer's name) over its own
 * seat's, the seat counted from 1 and the name over the others', and whether a player's tab is hidden.
 */
import { seatWords } from '../../netplay/seat-words.js';

/** Who holds each seat of the room shown, as its session knows it. */
export interface RoomSeats {
  /** Each seat's player's name ('' none, null unknown or free). */
  names: readonly (string | null)[];
  /** The seats whose player's tab is hidden. */
  hidden: readonly number[];
}

/** The label over each of `players` seats' players, seen from seat `you`. */
export function seatLabels(players: number, you: number, seats: RoomSeats | null): string[] {
  const names = seats?.names ?? [];
  return Array.from({ length: players }, (_, k) => {
    const name = names[k];
    if (k === you) return name ? `you (${name})` : 'you';
    return seatWords(k, names) + (seats?.hidden.includes(k) ? ', tab hidden' : '');
  });
}
