module reflecteq

go 1.26
