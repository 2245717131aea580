module xtestdir

go 1.24
