import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Vitest sequencer of `npm test`: the files of all projects in one queue, the longest first.
 *
 * Vitest's own (`BaseSequencer`) orders by project first (`e2e`, then `server`, then `unit`) and by
 * duration only within a project: the run's long `server` file (scripts/admin.test.ts, over a
 * minute) started after every browser file, and the workers then ran browser files side by side
 * while the short unit files waited. Here a file's place is its duration in the last run Vitest
 * cached (`node_modules/.vite/vitest`), whatever its project, so that the longest start first and
 * the short ones fill the gaps at the end; a file the cache does not know starts before those it
 * knows (it may be long), larger files first, as Vitest's own does. `sequence.groupOrder` still
 * comes first (the files of the `server-alone` project run after these, on their own).
 */
export default class LongestFirstSequencer extends BaseSequencer {
  override sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const { cache, config } = this.ctx;
    const key = (spec: TestSpecification) => `${spec.project.name}:${relative(config.root, spec.moduleId)}`;
    const place = new Map(
      files.map((spec) => {
        const duration = cache.getFileTestResults(key(spec))?.duration;
        // Unknown files first, by size (bytes); then known ones, by duration (ms).
        return [spec, duration === undefined ? { known: 0, cost: cache.getFileStats(key(spec))?.size ?? 0 } : { known: 1, cost: duration }] as const;
      }),
    );
    return Promise.resolve(
      [...files].sort((a, b) => {
        const groupOrder = a.project.config.sequence.groupOrder - b.project.config.sequence.groupOrder;
        if (groupOrder !== 0) return groupOrder;
        const placeA = place.get(a)!;
        const placeB = place.get(b)!;
        return placeA.known - placeB.known || placeB.cost - placeA.cost;
      }),
    );
  }
}
