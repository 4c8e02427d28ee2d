// Half of the test files that render the console, in one worker (test/ui/groups.ts).
import { runUiGroup } from './runGroup';

runUiGroup(2);
