module funcname

go 1.26
