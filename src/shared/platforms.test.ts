import { describe, expect, it } from 'vitest';
import { handleFromProfileUrl, normalizeHandle, payloadPlatforms, profileUrl, usernameFits } from './platforms';

describe('platforms of a stored payload', () => {
  it('reads the platforms group and the single-field platforms in requirements §3 order, skipping what is not a string', () => {
    const payload = {
      personalInfo: {},
      platforms: {
        tiktok: { handle: '@ada' },
        instagram: { handle: 'ada.makes', followers: '12000' },
        website: { url: 'ada.example', monthlyTraffic: '40' },
        youtube: { handle: 7 },
      },
      fields: { 'single.linkedin.handle': 'ada-l', 'single.linkedin.followers': '90', 'single.reddit.followers': '3' },
    };
    expect(payloadPlatforms(payload)).toEqual([
      { platform: 'instagram', handle: 'ada.makes', followers: '12000' },
      { platform: 'tiktok', handle: '@ada' },
      { platform: 'website', handle: 'ada.example', followers: '40' },
      { platform: 'linkedin', handle: 'ada-l', followers: '90' },
    ]);
    expect(payloadPlatforms(null)).toEqual([]);
    expect(payloadPlatforms({ platforms: 'x', fields: [] })).toEqual([]);
  });

  it('links each platform to its public profile, the handle kept to one path segment', () => {
    expect(profileUrl('instagram', 'ada.makes')).toBe('https://www.instagram.com/ada.makes');
    expect(profileUrl('tiktok', '@adamakes')).toBe('https://www.tiktok.com/@adamakes');
    expect(profileUrl('youtube', 'Ada')).toBe('https://www.youtube.com/@Ada');
    expect(profileUrl('linkedin', 'ada-l')).toBe('https://www.linkedin.com/in/ada-l');
    expect(profileUrl('twitter', '../../evil?x=1')).toBe('https://x.com/..%2F..%2Fevil%3Fx%3D1');
    expect(profileUrl('website', 'ada.example/shop')).toBe('https://ada.example/shop');
    expect(profileUrl('website', 'http://ada.example')).toBe('http://ada.example');
  });

  it('normalises handles so that the same account matches: case, @, website scheme, www. and slash', () => {
    expect(normalizeHandle('instagram', '@Ada.Makes ')).toBe('ada.makes');
    expect(normalizeHandle('website', 'HTTPS://www.Ada.example/')).toBe('ada.example');
  });
});

describe('platform user-name rules and pasted profile addresses', () => {
  it("applies each platform's published rule", () => {
    expect(usernameFits('instagram', 'ada.makes')).toBe(true);
    expect(usernameFits('instagram', 'a'.repeat(31))).toBe(false);
    expect(usernameFits('twitter', 'ada.makes')).toBe(false);
    expect(usernameFits('twitter', '@ada_makes')).toBe(true);
    expect(usernameFits('twitch', 'ada')).toBe(false);
    expect(usernameFits('tiktok', 'a')).toBe(false);
    expect(usernameFits('tiktok', 'ada.')).toBe(false);
    expect(usernameFits('tiktok', '@ada.makes')).toBe(true);
    expect(usernameFits('snapchat', '1ada')).toBe(false);
    expect(usernameFits('youtube', '@アダ_makes')).toBe(true);
    expect(usernameFits('website', 'anything')).toBe(true);
  });

  it('finds the user name in a profile address of the platform itself', () => {
    expect(handleFromProfileUrl('instagram', 'https://www.instagram.com/ada.makes/')).toBe('ada.makes');
    expect(handleFromProfileUrl('instagram', ' instagram.com/ada.makes?igsh=abc ')).toBe('ada.makes');
    expect(handleFromProfileUrl('reddit', 'u/camille_cree')).toBe('camille_cree');
    expect(handleFromProfileUrl('reddit', '/u/camille_cree/')).toBe('camille_cree');
    expect(handleFromProfileUrl('reddit', 'https://old.reddit.com/user/ada_makes')).toBe('ada_makes');
    expect(handleFromProfileUrl('instagram', 'u/camille_cree')).toBeUndefined();
    expect(handleFromProfileUrl('tiktok', 'tiktok.com/@ada')).toBe('ada');
    expect(handleFromProfileUrl('youtube', 'https://m.youtube.com/@ada')).toBe('ada');
    expect(handleFromProfileUrl('twitter', 'x.com/ada')).toBe('ada');
    expect(handleFromProfileUrl('twitter', 'https://twitter.com/ada_makes')).toBe('ada_makes');
    expect(handleFromProfileUrl('linkedin', 'https://www.linkedin.com/in/ada-l/')).toBe('ada-l');
    expect(handleFromProfileUrl('reddit', 'reddit.com/u/ada_makes')).toBe('ada_makes');
    expect(handleFromProfileUrl('instagram', 'tiktok.com/@ada')).toBeUndefined();
    expect(handleFromProfileUrl('instagram', 'https://instagram.com/')).toBeUndefined();
    expect(handleFromProfileUrl('instagram', 'ada.makes')).toBeUndefined();
    expect(handleFromProfileUrl('website', 'https://ada.dev')).toBeUndefined();
    // The platforms' own pages name no one (outside review).
    for (const [platform, url] of [
      ['instagram', 'https://www.instagram.com/reel/C1x2y3/'],
      ['instagram', 'instagram.com/p/C1x2y3'],
      ['instagram', 'instagram.com/stories/ada/123'],
      ['youtube', 'https://www.youtube.com/watch?v=abc'],
      ['youtube', 'youtube.com/channel/UC123'],
      ['twitter', 'x.com/home'],
      ['facebook', 'facebook.com/profile.php?id=1'],
      ['twitch', 'twitch.tv/videos/1'],
      ['tiktok', 'tiktok.com/discover'],
      ['reddit', 'reddit.com/r/putty'],
    ] as const) {
      expect(handleFromProfileUrl(platform, url), url).toBeUndefined();
    }
    expect(handleFromProfileUrl('youtube', 'youtube.com/c/adamakes')).toBe('adamakes');
    expect(handleFromProfileUrl('snapchat', 'snapchat.com/add/ada.makes')).toBe('ada.makes');
  });
});
