module finalizer

go 1.26
