module bigtable

go 1.22
