// Real browser events drive these tests, so React is not in act() mode except inside support/act.ts's act.
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = false;
