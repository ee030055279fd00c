import { useState } from 'react';
import { createAgeScreenLock } from '../services/age-screen-lock';
import { AgeScreen as Screen, type PageAgeScreenProps } from './age-screen';

/**
 * The public page's age screen (requirements §20), the chunk only a page with one loads: it keeps
 * that it ended the wizard in this browser's localStorage (services/age-screen-lock.ts).
 */
export function AgeScreen(props: PageAgeScreenProps) {
  const [lock] = useState(() => createAgeScreenLock(props.config.pageId));
  return <Screen {...props} lock={lock} />;
}
