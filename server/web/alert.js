// Telling a player it is their turn when they look elsewhere: a short chime made with
// WebAudio (no sound file), which a button mutes (remembered in local storage), and the
// tab's title.

import { h } from "./dom.js";

const MUTED = "pokerroom.muted";
const TITLE = "pokerroom";

export const isMuted = () => localStorage.getItem(MUTED) === "1";

/** How many chimes the page has played (the tests read it: a headless browser has no
 * loudspeaker). */
export const chimes = { played: 0 };
let audio = null;

/** Two short rising notes, unless muted. */
export function chime() {
  if (isMuted()) return;
  chimes.played += 1;
  try {
    audio = audio || new AudioContext();
    if (audio.state === "suspended") audio.resume().catch(() => {});
    const start = audio.currentTime + 0.01;
    [660, 880].forEach((pitch, i) => {
      const at = start + i * 0.14;
      const tone = audio.createOscillator(), gain = audio.createGain();
      tone.type = "sine";
      tone.frequency.value = pitch;
      gain.gain.setValueAtTime(0.0001, at);
      gain.gain.exponentialRampToValueAtTime(0.18, at + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, at + 0.13);
      tone.connect(gain).connect(audio.destination);
      tone.start(at);
      tone.stop(at + 0.14);
    });
  } catch { /* no audio here: the title still says it */ }
}

/** A new decision of ours (not the same request sent again after a resume). */
export function yourTurn(app, request) {
  const key = `${request.table}/${request.hand_number}/${request.seq}`;
  if (app.lastTurn === key) return;
  app.lastTurn = key;
  chime();
}

/** The tab's title says when it is our turn. */
export function showTurn(app, t) {
  document.title = t && t.request && t.view && t.view.hand_in_progress ? `▶ Your turn · ${TITLE}` : TITLE;
}

export const resetTitle = () => { document.title = TITLE; };

/** The sound's on/off button: one for the page, kept across redraws. */
export function muteButton(app) {
  if (!app.muteButton) {
    const b = h("button", { type: "button", class: "mute", "data-testid": "mute" });
    const label = () => {
      b.textContent = isMuted() ? "Sound: off" : "Sound: on";
      b.setAttribute("aria-pressed", String(isMuted()));
      b.title = isMuted() ? "Play a sound when it is your turn" : "Mute the sound of your turn";
    };
    b.addEventListener("click", () => { localStorage.setItem(MUTED, isMuted() ? "0" : "1"); label(); });
    label();
    app.muteButton = b;
  }
  return app.muteButton;
}
