import { describe, expect, it } from 'vitest';
import * as metrics from '../../../src/metrics/index.ts';
import * as stats from '../../../src/stats/index.ts';

// Pins the public surface of the two modules: adding or removing an export is a deliberate act.
describe('public exports', () => {
  it('src/stats', () => {
    expect(Object.keys(stats).sort()).toEqual([
      'bootstrapCi',
      'bootstrapCountsCi',
      'ci95',
      'clusteredStandardError',
      'comparePaired',
      'confidenceInterval',
      'criticalValue',
      'discordantPairs',
      'epochStandardError',
      'epochsNeeded',
      'finiteValues',
      'groupBy',
      'logGamma',
      'mcnemarExact',
      'mean',
      'median',
      'minimumDetectableEffect',
      'minimumDetectableEffectWithEpochs',
      'mulberry32',
      'normalCdf',
      'normalPdf',
      'normalQuantile',
      'pairedDifference',
      'pairedVarianceComponents',
      'pairedVarianceFromBaseline',
      'passAtK',
      'passHatK',
      'pearsonCorrelation',
      'planPower',
      'powerMultiplier',
      'quantile',
      'regularizedIncompleteBeta',
      'sortedQuantile',
      'standardDeviation',
      'standardError',
      'studentTCdf',
      'studentTPdf',
      'studentTQuantile',
      'sum',
      'taskMeans',
      'tasksNeeded',
      'tasksNeededWithEpochs',
      'twoSidedPValue',
      'variance',
      'varianceComponents',
      'varianceWithEpochs',
    ]);
  });

  it('src/metrics', () => {
    expect(Object.keys(metrics).sort()).toEqual([
      'MetricRegistry',
      'agentLatencyOf',
      'builtinMetricNames',
      'builtinMetrics',
      'computeMetrics',
      'createMetric',
      'defaultMetricRegistry',
      'defaultMetrics',
      'formatMetricValue',
      'isBuiltinMetric',
      'meanOverTasks',
      'metricCatalog',
      'parseMetricAlias',
      'registerMetric',
      'trialScore',
    ]);
  });
});
