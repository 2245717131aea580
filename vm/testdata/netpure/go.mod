module netpure

go 1.26
