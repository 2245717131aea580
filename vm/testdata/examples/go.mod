module examples

go 1.26
