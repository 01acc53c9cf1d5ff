/**
 * Whether the n-th 20 ms packet since the answer is lost at `percent` loss.
 * Losses are spread evenly, with no randomness, so a test can count them:
 * of the first P packets exactly round(P × percent / 100) are lost, the
 * figure RTP statistics report for the same stretch.
 */
export function lostPacket(n: number, percent: number): boolean {
  return Math.round(((n + 1) * percent) / 100) > Math.round((n * percent) / 100);
}
