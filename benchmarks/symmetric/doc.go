// Package symmetric is the reduced model of errgroup's TestTryGo for
// symmetric choice reduction (RESULTS.md, "Session 12: symmetric
// choices"): N identical workers each send once on one unbuffered
// channel, main receives N times and waits for them. N comes from the
// environment variable N (default 4); symmetric.sh runs gmc over it for
// a range of N and every strategy.
package symmetric
