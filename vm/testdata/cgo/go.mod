module cgo

go 1.26
