module finalizers2

go 1.26
