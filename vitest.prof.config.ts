import base from './vitest.config';
export default { ...base, test: { ...base.test, maxWorkers: 1, execArgv: ['--cpu-prof', '--cpu-prof-dir=/tmp/prof'] } };
