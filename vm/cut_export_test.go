package vm

// CutPoll is cutPoll for the external tests (TestStepWithinCut).
const CutPoll = cutPoll
