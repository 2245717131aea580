// Package testctx's test uses t.Context() without importing context: the
// context package is initialized all the same (its Canceled error, which
// the runner's cancel needs, is made by its initializer).
package testctx
