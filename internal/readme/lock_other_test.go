//go:build !unix

package readme

// lockDir has no lock to take here: the scenarios run in a temporary
// directory, compiled afresh.
func lockDir(path string) (unlock func(), ok bool) { return nil, false }
