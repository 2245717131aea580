module reflectslice

go 1.22
