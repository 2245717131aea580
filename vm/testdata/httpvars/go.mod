module httpvars

go 1.26
