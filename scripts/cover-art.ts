/**
 * The default page's cover illustrations, one per step, drawn as SVG source: the world of the
 * brand's putty (a tin and its stretchy putty, a creator's phone filming it, hands playing with it,
 * the celebration when the application is in). Flat shapes on the brand purple and bright toy
 * colours; no text, fonts, rasters or outside references, so the files are small and the same on
 * every run. The canvas is 800 × 1200; the layout shows it with `object-fit: cover` as a tall
 * panel (down to a centre strip about 360 units wide) and as a wide phone banner (a centre band
 * about 380 units tall), so each subject sits around the centre (400, 600).
 * `npm run generate:images` writes public/images/cover-N.svg from here, then the WebP files.
 */

/** The palette: the brand purple, bright toy colours, soft backgrounds. */
const C = {
  purple: '#5a2d82',
  deep: '#3b1a5a',
  plum: '#7d4cb0',
  lilac: '#c7b1ea',
  teal: '#25c2bd',
  tealDark: '#14948f',
  yellow: '#ffc83d',
  yellowDark: '#eba317',
  coral: '#ff7a59',
  coralDark: '#e4553a',
  pink: '#ff6fae',
  pinkDark: '#dc4690',
  skin: '#f4bb92',
  skinDark: '#df946a',
  white: '#fff',
};

const W = 800;
const H = 1200;

/** Numbers rounded to one decimal, without a trailing `.0`. */
const n = (value: number) => String(Math.round(value * 10) / 10);

/** A small seeded random generator (mulberry32): the same confetti on every run. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const linear = (id: string, stops: string[], x2 = 0, y2 = 1) =>
  `<linearGradient id="${id}" x1="0" y1="0" x2="${x2}" y2="${y2}">${stops
    .map((colour, index) => `<stop offset="${n(index / (stops.length - 1))}" stop-color="${colour}"/>`)
    .join('')}</linearGradient>`;

const radial = (id: string, colour: string, opacity: number) =>
  `<radialGradient id="${id}"><stop offset="0" stop-color="${colour}" stop-opacity="${opacity}"/><stop offset="1" stop-color="${colour}" stop-opacity="0"/></radialGradient>`;

/** A four-pointed sparkle. */
const sparkle = (x: number, y: number, r: number, fill: string) =>
  `<path d="M${n(x)} ${n(y - r)}Q${n(x)} ${n(y)} ${n(x + r)} ${n(y)}Q${n(x)} ${n(y)} ${n(x)} ${n(y + r)}Q${n(x)} ${n(y)} ${n(x - r)} ${n(y)}Q${n(x)} ${n(y)} ${n(x)} ${n(y - r)}Z" fill="${fill}"/>`;

/** A heart of half-width about `s` centred on (x, y). */
const heartPath = (x: number, y: number, s: number) =>
  `M${n(x)} ${n(y + s * 0.85)}C${n(x - s * 1.5)} ${n(y - s * 0.05)} ${n(x - s * 0.85)} ${n(y - s * 1.15)} ${n(x)} ${n(y - s * 0.45)}C${n(x + s * 0.85)} ${n(y - s * 1.15)} ${n(x + s * 1.5)} ${n(y - s * 0.05)} ${n(x)} ${n(y + s * 0.85)}Z`;
const heart = (x: number, y: number, s: number, fill: string) => `<path d="${heartPath(x, y, s)}" fill="${fill}"/>`;

/** A ball of putty with its shine and its shadow on the floor. */
const ball = (x: number, y: number, r: number, fill: string, shade: string) =>
  `<ellipse cx="${n(x + r * 0.15)}" cy="${n(y + r * 0.92)}" rx="${n(r * 0.95)}" ry="${n(r * 0.22)}" fill="${C.deep}" opacity=".14"/>` +
  `<circle cx="${n(x)}" cy="${n(y)}" r="${n(r)}" fill="${fill}"/>` +
  `<path d="M${n(x - r)} ${n(y)}A${n(r)} ${n(r)} 0 0 0 ${n(x + r)} ${n(y)}A${n(r)} ${n(r * 0.75)} 0 0 1 ${n(x - r)} ${n(y)}Z" fill="${shade}" opacity=".55"/>` +
  `<ellipse cx="${n(x - r * 0.35)}" cy="${n(y - r * 0.42)}" rx="${n(r * 0.28)}" ry="${n(r * 0.16)}" transform="rotate(-35 ${n(x - r * 0.35)} ${n(y - r * 0.42)})" fill="#fff" opacity=".75"/>`;

/** Confetti scattered over the canvas, kept out of a central box. */
function confetti(seed: number, count: number, colours: string[], avoid: { x: number; y: number; rx: number; ry: number }): string {
  const next = random(seed);
  let out = '';
  let placed = 0;
  while (placed < count) {
    const x = 30 + next() * (W - 60);
    const y = 40 + next() * (H - 80);
    const colour = colours[Math.floor(next() * colours.length)] ?? C.pink;
    const kind = next();
    const angle = Math.round(next() * 180);
    if (((x - avoid.x) / avoid.rx) ** 2 + ((y - avoid.y) / avoid.ry) ** 2 < 1) continue;
    placed++;
    if (kind < 0.4) out += `<rect x="${n(x - 9)}" y="${n(y - 4)}" width="18" height="8" rx="3" fill="${colour}" transform="rotate(${angle} ${n(x)} ${n(y)})"/>`;
    else if (kind < 0.7) out += `<circle cx="${n(x)}" cy="${n(y)}" r="${n(5 + next() * 4)}" fill="${colour}"/>`;
    else
      out += `<path d="M${n(x - 14)} ${n(y)}q7 -10 14 0t14 0" fill="none" stroke="${colour}" stroke-width="5" stroke-linecap="round" transform="rotate(${angle} ${n(x)} ${n(y)})"/>`;
  }
  return out;
}

/** The round putty tin, seen from above at an angle: body, rim and the putty inside. */
function tin(cx: number, top: number, w: number, h: number, putty: string, puttyShade: string): string {
  const rx = w / 2;
  const ry = w * 0.19;
  const left = cx - rx;
  const right = cx + rx;
  return (
    `<ellipse cx="${n(cx + 12)}" cy="${n(top + h + 8)}" rx="${n(rx + 26)}" ry="${n(ry + 10)}" fill="${C.deep}" opacity=".16"/>` +
    `<path d="M${n(left)} ${n(top)}V${n(top + h)}A${n(rx)} ${n(ry)} 0 0 0 ${n(right)} ${n(top + h)}V${n(top)}Z" fill="url(#tinSide)"/>` +
    `<path d="M${n(left)} ${n(top + h * 0.28)}V${n(top + h * 0.78)}A${n(rx)} ${n(ry)} 0 0 0 ${n(right)} ${n(top + h * 0.78)}V${n(top + h * 0.28)}A${n(rx)} ${n(ry)} 0 0 1 ${n(left)} ${n(top + h * 0.28)}Z" fill="url(#tinBand)"/>` +
    `<circle cx="${n(cx - 14)}" cy="${n(top + h * 0.53 + ry)}" r="9" fill="${C.yellow}"/><circle cx="${n(cx + 6)}" cy="${n(top + h * 0.53 + ry + 4)}" r="11" fill="${C.teal}"/><circle cx="${n(cx + 10)}" cy="${n(top + h * 0.53 + ry - 12)}" r="5" fill="${C.pink}"/>` +
    `<ellipse cx="${n(cx)}" cy="${n(top)}" rx="${n(rx)}" ry="${n(ry)}" fill="#e9e4f1"/>` +
    `<ellipse cx="${n(cx)}" cy="${n(top + 2)}" rx="${n(rx - 10)}" ry="${n(ry - 7)}" fill="#a99cc0"/>` +
    `<ellipse cx="${n(cx)}" cy="${n(top + 4)}" rx="${n(rx - 16)}" ry="${n(ry - 11)}" fill="${puttyShade}"/>` +
    `<ellipse cx="${n(cx - 4)}" cy="${n(top)}" rx="${n(rx - 22)}" ry="${n(ry - 16)}" fill="${putty}"/>`
  );
}

/** The tin's lid, leaning: edge, face and a simple emblem (the logo's three dots, no words). */
function lid(cx: number, cy: number, r: number, angle: number): string {
  return (
    `<g transform="translate(${n(cx)} ${n(cy)}) rotate(${angle})">` +
    `<ellipse cx="14" cy="6" rx="${n(r * 0.86)}" ry="${n(r)}" fill="#9b8fb2"/>` +
    `<ellipse rx="${n(r * 0.86)}" ry="${n(r)}" fill="url(#lidFace)"/>` +
    `<ellipse rx="${n(r * 0.74)}" ry="${n(r * 0.87)}" fill="none" stroke="${C.lilac}" stroke-width="5" opacity=".6"/>` +
    `<circle r="${n(r * 0.44)}" fill="${C.purple}"/>` +
    `<circle cx="${n(-r * 0.15)}" cy="${n(-r * 0.12)}" r="${n(r * 0.12)}" fill="${C.yellow}"/>` +
    `<circle cx="${n(r * 0.14)}" cy="${n(r * 0.14)}" r="${n(r * 0.15)}" fill="${C.teal}"/>` +
    `<circle cx="${n(r * 0.2)}" cy="${n(-r * 0.2)}" r="${n(r * 0.07)}" fill="${C.pink}"/>` +
    `<path d="M${n(-r * 0.6)} ${n(-r * 0.45)}A${n(r * 0.8)} ${n(r * 0.95)} 0 0 1 ${n(-r * 0.05)} ${n(-r * 0.86)}" fill="none" stroke="#fff" stroke-width="7" stroke-linecap="round" opacity=".45"/>` +
    `</g>`
  );
}

/** A stretched ribbon of putty: a thick round stroke, its darker underside and its shine. */
const ribbon = (d: string, width: number, fill: string, shade: string, shine = 0.55) =>
  `<path d="${d}" fill="none" stroke="${shade}" stroke-width="${width}" stroke-linecap="round" transform="translate(3 5)"/>` +
  `<path d="${d}" fill="none" stroke="${fill}" stroke-width="${width}" stroke-linecap="round"/>` +
  `<path d="${d}" fill="none" stroke="#fff" stroke-width="${n(width * 0.22)}" stroke-linecap="round" stroke-dasharray="60 90" transform="translate(-${n(width * 0.18)} -${n(width * 0.18)})" opacity="${shine}"/>`;

const TIN_DEFS =
  linear('tinSide', ['#b3a7c8', '#f6f3fa', '#d9d2e6', '#9a8db1'], 1, 0) +
  linear('tinBand', [C.deep, C.plum, C.purple, C.deep], 1, 0) +
  linear('lidFace', ['#f4f0fa', '#c9bedb'], 1, 1);

const svg = (defs: string, body: string) =>
  `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}"><defs>${defs}</defs>${body}</svg>\n`;

/** Background: a soft vertical gradient, a glow behind the subject and a floor. */
const backdrop = (floorY: number, floor: string) =>
  `<rect width="${W}" height="${H}" fill="url(#bg)"/>` +
  `<circle cx="400" cy="590" r="360" fill="url(#glow)"/>` +
  `<ellipse cx="400" cy="${floorY + 330}" rx="640" ry="360" fill="${floor}"/>`;

const backdropDefs = (top: string, bottom: string) => linear('bg', [top, bottom]) + radial('glow', '#fff', 0.7);

/** A round speech bubble with its tail to one side. */
const bubble = (x: number, y: number, r: number, fill: string, side: 1 | -1) =>
  `<ellipse cx="${n(x + 4)}" cy="${n(y + 7)}" rx="${n(r)}" ry="${n(r)}" fill="${C.deep}" opacity=".12"/>` +
  `<path d="M${n(x + side * r * 0.2)} ${n(y + r * 0.8)}L${n(x + side * r * 0.85)} ${n(y + r * 1.3)}L${n(x + side * r * 0.8)} ${n(y + r * 0.35)}Z" fill="${fill}"/>` +
  `<circle cx="${n(x)}" cy="${n(y)}" r="${n(r)}" fill="${fill}"/>`;

/** A thumbs-up, about 84 units wide, centred on (x, y). */
const thumbsUp = (x: number, y: number, scale: number, fill: string) =>
  `<g transform="translate(${n(x)} ${n(y)}) scale(${scale})" fill="${fill}"><rect x="-42" y="-6" width="20" height="44" rx="5"/>` +
  `<path d="M-16 -6H-4L5 -31C9 -42 26 -40 23 -26L19 -9H35C44 -9 48 -1 46 8L40 31C38 37 34 40 27 40H-16Z"/></g>`;

/** Step 1, welcome: an open tin of putty, colourful putty stretched up out of it, sparkles. */
function cover1(): string {
  const body =
    backdrop(830, '#dccdf0') +
    confetti(11, 22, [C.pink, C.teal, C.yellow, C.lilac], { x: 400, y: 620, rx: 330, ry: 360 }) +
    lid(560, 650, 118, 14) +
    tin(390, 700, 330, 96, C.teal, C.tealDark) +
    `<path d="M262 706C300 690 330 716 370 706M445 700C470 690 490 702 514 692" fill="none" stroke="${C.pink}" stroke-width="8" stroke-linecap="round"/>` +
    `<path d="M318 726C350 716 380 732 410 722S452 724 476 716" fill="none" stroke="${C.yellow}" stroke-width="6" stroke-linecap="round"/>` +
    `<ellipse cx="285" cy="858" rx="44" ry="11" fill="${C.tealDark}"/>` +
    `<path d="M250 718C266 708 306 708 324 720C322 750 306 772 305 800C304 830 308 842 302 852C296 866 272 866 268 852C264 842 268 830 266 800C264 772 250 750 250 718Z" fill="${C.teal}"/>` +
    `<path d="M276 770C278 790 276 810 278 830" fill="none" stroke="#fff" stroke-width="6" stroke-linecap="round" opacity=".5"/>` +
    ribbon('M420 705C470 640 560 610 548 520', 36, C.pink, C.pinkDark) +
    `<ellipse cx="424" cy="706" rx="34" ry="11" fill="${C.pink}"/>` +
    ribbon('M372 700C330 600 236 570 262 480C288 390 410 380 428 460C444 530 520 550 536 460', 46, C.teal, C.tealDark) +
    `<ellipse cx="378" cy="704" rx="44" ry="14" fill="${C.teal}"/>` +
    ball(205, 905, 46, C.yellow, C.yellowDark) +
    ball(600, 935, 36, C.coral, C.coralDark) +
    ball(520, 990, 24, C.plum, C.deep) +
    sparkle(560, 380, 30, C.yellow) +
    sparkle(230, 380, 22, C.white) +
    sparkle(640, 520, 16, C.white) +
    sparkle(180, 600, 18, C.yellow) +
    sparkle(470, 330, 14, C.pink);
  return svg(backdropDefs('#fbe3f0', '#e7dcf6') + TIN_DEFS, body);
}

/** Step 2, about you and your platforms: a phone in a ring light on a tripod, filming putty, hearts rising. */
function cover2(): string {
  const body =
    backdrop(900, '#d3ece9') +
    confetti(23, 16, [C.teal, C.pink, C.yellow, C.lilac], { x: 400, y: 640, rx: 320, ry: 420 }) +
    `<circle cx="400" cy="570" r="300" fill="url(#light)"/>` +
    // tripod
    `<ellipse cx="400" cy="1122" rx="150" ry="16" fill="${C.deep}" opacity=".14"/>` +
    `<path d="M400 990L296 1120M400 990L504 1120" stroke="${C.deep}" stroke-width="14" stroke-linecap="round"/>` +
    `<path d="M400 990V1110" stroke="${C.purple}" stroke-width="12" stroke-linecap="round"/>` +
    `<rect x="390" y="750" width="20" height="250" rx="8" fill="${C.purple}"/>` +
    `<rect x="378" y="970" width="44" height="28" rx="8" fill="${C.deep}"/>` +
    // ring light
    `<circle cx="400" cy="570" r="186" fill="none" stroke="${C.deep}" stroke-width="46"/>` +
    `<circle cx="400" cy="570" r="186" fill="none" stroke="#fffae6" stroke-width="30"/>` +
    `<rect x="388" y="690" width="24" height="70" rx="8" fill="${C.deep}"/>` +
    // phone
    `<rect x="322" y="428" width="156" height="276" rx="26" fill="${C.deep}"/>` +
    `<rect x="332" y="438" width="136" height="256" rx="18" fill="url(#screen)"/>` +
    `<rect x="382" y="446" width="36" height="8" rx="4" fill="${C.deep}"/>` +
    `<circle cx="350" cy="464" r="7" fill="#ff4d5e"/>` +
    `<rect x="362" y="460" width="30" height="8" rx="4" fill="#fff" opacity=".8"/>` +
    // on the screen: a hand pulling putty up out of its tin
    `<ellipse cx="400" cy="654" rx="52" ry="12" fill="${C.deep}" opacity=".15"/>` +
    `<path d="M354 620V642A46 13 0 0 0 446 642V620Z" fill="${C.purple}"/>` +
    `<ellipse cx="400" cy="620" rx="46" ry="13" fill="#e9e4f1"/>` +
    `<ellipse cx="400" cy="621" rx="38" ry="9" fill="${C.yellow}"/>` +
    `<path d="M366 626C384 612 392 600 396 586H406C410 600 416 612 434 626Z" fill="${C.yellow}"/>` +
    `<path d="M401 592C392 572 414 556 402 540C396 530 404 522 408 516" fill="none" stroke="${C.yellow}" stroke-width="10" stroke-linecap="round"/>` +
    `<path d="M468 470L432 500C424 506 420 512 414 518L430 530C440 522 448 520 468 508Z" fill="${C.skin}"/>` +
    `<ellipse cx="408" cy="514" rx="14" ry="8" fill="${C.skin}" transform="rotate(30 408 514)"/>` +
    `<ellipse cx="418" cy="528" rx="12" ry="7" fill="${C.skinDark}" transform="rotate(-20 418 528)"/>` +
    sparkle(444, 580, 10, '#fff') +
    // the likes rising beside the phone
    heart(520, 490, 24, C.pink) +
    heart(556, 428, 17, C.coral) +
    heart(528, 376, 12, C.pink) +
    heart(270, 420, 14, C.coral) +
    // the play bubble and sparkles
    bubble(210, 330, 46, C.coral, 1) +
    `<path d="M196 308L234 330L196 352Z" fill="#fff"/>` +
    sparkle(620, 320, 26, C.yellow) +
    sparkle(160, 620, 18, '#fff') +
    sparkle(650, 760, 20, '#fff') +
    // on the floor: a tin of putty, a ball of it beside
    tin(605, 980, 170, 50, C.pink, C.pinkDark) +
    ball(200, 1040, 40, C.teal, C.tealDark) +
    ball(270, 1080, 22, C.yellow, C.yellowDark) +
    ball(690, 1070, 24, C.pink, C.pinkDark);
  return svg(backdropDefs('#d8f3ef', '#ece3f8') + TIN_DEFS + linear('screen', ['#fde7f2', '#e6dcf7']) + radial('light', '#fff6c9', 0.9), body);
}

/** Step 3, the survey: two hands stretching putty, the reactions of an audience popping up. */
function cover3(): string {
  const hand = (x: number, y: number, mirror: 1 | -1, angle: number) =>
    `<g transform="translate(${x} ${y}) rotate(${angle}) scale(${mirror} 1)">` +
    `<path d="M-70 -36L-330 -70V110L-60 50Z" fill="${C.purple}"/>` +
    `<rect x="-84" y="-42" width="36" height="98" rx="14" fill="${C.plum}"/>` +
    `<rect x="-60" y="-40" width="84" height="92" rx="36" fill="${C.skin}"/>` +
    `<rect x="6" y="-30" width="40" height="26" rx="13" fill="${C.skin}" stroke="${C.skinDark}" stroke-width="3"/>` +
    `<rect x="4" y="-6" width="42" height="26" rx="13" fill="${C.skin}" stroke="${C.skinDark}" stroke-width="3"/>` +
    `<rect x="2" y="18" width="38" height="26" rx="13" fill="${C.skin}" stroke="${C.skinDark}" stroke-width="3"/>` +
    `<rect x="-2" y="40" width="30" height="20" rx="10" fill="${C.skin}" stroke="${C.skinDark}" stroke-width="3"/>` +
    `<path d="M-30 -38C-10 -58 40 -56 58 -40C66 -32 60 -22 50 -24C30 -28 0 -28 -24 -20Z" fill="${C.skin}" stroke="${C.skinDark}" stroke-width="3"/>` +
    `</g>`;
  // the putty, thick in each hand, thin in the middle where it is pulled
  const putty = 'M292 640C350 638 386 642 410 630C436 618 460 572 516 540L540 604C488 616 462 634 430 644C396 654 360 690 300 714Z';
  const body =
    backdrop(850, '#f9dcc6') +
    confetti(37, 16, [C.pink, C.teal, C.coral, C.plum], { x: 400, y: 600, rx: 330, ry: 400 }) +
    `<path d="${putty}" fill="${C.tealDark}" transform="translate(2 7)"/>` +
    `<path d="${putty}" fill="${C.teal}"/>` +
    `<path d="M330 652C364 652 392 646 410 638" fill="none" stroke="#fff" stroke-width="7" stroke-linecap="round" opacity=".6"/>` +
    `<path d="M452 604C470 590 490 578 504 572" fill="none" stroke="#fff" stroke-width="5" stroke-linecap="round" opacity=".5"/>` +
    hand(282, 680, 1, 12) +
    hand(530, 572, -1, -22) +
    // reactions
    bubble(282, 466, 56, C.pink, 1) +
    heart(282, 470, 29, '#fff') +
    bubble(530, 392, 48, C.coral, -1) +
    thumbsUp(532, 390, 0.68, '#fff') +
    bubble(400, 300, 34, C.yellow, -1) +
    sparkle(400, 300, 19, '#fff') +
    heart(180, 340, 14, C.coral) +
    heart(650, 690, 16, C.pink) +
    heart(640, 270, 11, C.coral) +
    // a ball of putty bouncing, and the tin it came from
    `<path d="M250 930Q280 820 320 880" fill="none" stroke="${C.lilac}" stroke-width="6" stroke-linecap="round" stroke-dasharray="2 14"/>` +
    ball(350, 940, 40, C.yellow, C.yellowDark) +
    tin(560, 940, 200, 60, C.teal, C.tealDark) +
    sparkle(170, 780, 18, '#fff') +
    sparkle(660, 820, 22, C.yellow);
  return svg(backdropDefs('#fff1d2', '#fde0ec') + TIN_DEFS, body);
}

/** Step 4, thank you: confetti, a putty heart rising out of its tin, a letter on its way, a thumbs-up. */
function cover4(): string {
  const body =
    backdrop(850, '#e2d5f5') +
    confetti(41, 46, [C.pink, C.teal, C.yellow, C.coral, C.plum], { x: 400, y: 640, rx: 250, ry: 300 }) +
    `<path d="M-10 140C80 110 100 200 190 170S290 90 330 60" fill="none" stroke="${C.teal}" stroke-width="10" stroke-linecap="round"/>` +
    `<path d="M810 180C720 150 700 240 610 210S520 130 480 96" fill="none" stroke="${C.pink}" stroke-width="10" stroke-linecap="round"/>` +
    tin(400, 770, 320, 92, C.pink, C.pinkDark) +
    `<path d="M322 774C366 762 390 744 394 700H410C414 744 438 762 482 774C440 790 362 790 322 774Z" fill="${C.pink}"/>` +
    `<path d="M410 704C412 724 418 738 430 750" fill="none" stroke="${C.pinkDark}" stroke-width="4" stroke-linecap="round"/>` +
    heart(404, 626, 120, C.pinkDark) +
    heart(400, 620, 120, C.pink) +
    `<path d="M318 600C322 568 340 548 368 546" fill="none" stroke="#fff" stroke-width="14" stroke-linecap="round" opacity=".6"/>` +
    `<path d="M468 650C482 636 490 620 492 604" fill="none" stroke="#fff" stroke-width="8" stroke-linecap="round" opacity=".35"/>` +
    // the letter
    `<g transform="translate(285 385) rotate(-14)"><rect x="-70" y="-46" width="140" height="92" rx="10" fill="#fff"/>` +
    `<path d="M-70 -40L0 8L70 -40" fill="none" stroke="${C.lilac}" stroke-width="6" stroke-linejoin="round"/>` +
    heart(0, 8, 14, C.coral) +
    `</g>` +
    `<path d="M165 445H205M175 471H211M159 419H191" stroke="#fff" stroke-width="6" stroke-linecap="round"/>` +
    // thumbs-up
    bubble(548, 392, 54, C.yellow, -1) +
    thumbsUp(550, 390, 0.78, '#fff') +
    sparkle(520, 250, 26, C.yellow) +
    sparkle(270, 620, 20, '#fff') +
    sparkle(560, 690, 18, '#fff') +
    ball(215, 935, 40, C.teal, C.tealDark) +
    ball(600, 950, 34, C.yellow, C.yellowDark);
  return svg(backdropDefs('#f1e7fc', '#fde3ee') + TIN_DEFS, body);
}

export const COVER_ART: readonly string[] = [cover1(), cover2(), cover3(), cover4()];
